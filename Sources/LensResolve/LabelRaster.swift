import Foundation
import LensModel

/// Rasterises a scene's label row (and its lifted row) into the coverage words the shaders read.
struct LabelRaster {
    /// Loads an image; SVG rasterised at `scale` pixels per point.
    let loadImage: (_ path: String, _ scale: Double, _ keyPath: String) throws -> RGBA8Image

    /// The label row's coverage packed four bytes per word, followed by the lifted row when there is one.
    func words(_ label: LabelLayer?, scale: Double, width: Int, height: Int) throws -> [UInt32] {
        let wordsPerRow = (width + 3) / 4
        let labelWordCount = wordsPerRow * height
        var labelWords = [UInt32](repeating: 0, count: labelWordCount)
        guard let label else { return labelWords }
        rasterizeLabel(
            try self.mask(label.mask, scale: label.scale, keyPath: "label.mask"), label: label, scale: scale,
            width: width,
            height: height, wordsPerRow: wordsPerRow, into: &labelWords[...])
        if let liftedMask = label.liftedMask {
            labelWords += [UInt32](repeating: 0, count: labelWordCount)
            rasterizeLabel(
                try self.mask(liftedMask, scale: label.scale, keyPath: "label.liftedMask"), label: label, scale: scale,
                width: width,
                height: height, wordsPerRow: wordsPerRow, into: &labelWords[labelWordCount...])
        }
        return labelWords
    }

    /// The coverage of `mask`: its alpha, or its grey level when it is opaque; an SVG file drawn at
    /// `scale` pixels per point.
    func mask(_ mask: LabelMask, scale: Double, keyPath: String) throws -> AlphaImage {
        switch mask {
        case .image(let image):
            return image
        case .file(let path):
            let image = try loadImage(path, scale, keyPath)
            let hasAlpha = stride(from: 3, to: image.pixels.count, by: 4).contains { image.pixels[$0] != 255 }
            let coverage = (0..<image.width * image.height).map { index -> UInt8 in
                if hasAlpha { return image.pixels[index * 4 + 3] }
                let sum =
                    Int(image.pixels[index * 4]) + Int(image.pixels[index * 4 + 1]) + Int(image.pixels[index * 4 + 2])
                return UInt8((sum + 1) / 3)
            }
            return AlphaImage(width: image.width, height: image.height, coverage: coverage)
        }
    }

    /// Places the mask on the canvas, resampling bilinearly from the mask's scale to the canvas's.
    /// Only the pixels whose four taps can reach ink are sampled: a label row is mostly empty, and
    /// a pixel whose taps are all zero is zero.
    private func rasterizeLabel(
        _ mask: AlphaImage, label: LabelLayer, scale: Double, width: Int, height: Int, wordsPerRow: Int,
        into words: inout ArraySlice<UInt32>
    ) {
        func maskValue(_ x: Int, _ y: Int) -> Double {
            guard x >= 0, y >= 0, x < mask.width, y < mask.height else { return 0 }
            return Double(mask.coverage[y * mask.width + x])
        }
        let minX = max(0, Int((label.origin.x * scale).rounded(.down)) - 1)
        let minY = max(0, Int((label.origin.y * scale).rounded(.down)) - 1)
        let maxX = min(width, Int(((label.origin.x + Double(mask.width) / label.scale) * scale).rounded(.up)) + 1)
        let maxY = min(height, Int(((label.origin.y + Double(mask.height) / label.scale) * scale).rounded(.up)) + 1)
        guard minX < maxX, minY < maxY else { return }
        let ink = Self.inkSpans(mask)
        /// The canvas column whose sample lies at mask column `u`, rounded outwards by two pixels.
        func canvasX(_ u: Int, _ rounding: FloatingPointRoundingRule) -> Int {
            let x = ((Double(u) + 0.5) / label.scale + label.origin.x) * scale - 0.5
            return Int(x.rounded(rounding)) + (rounding == .down ? -2 : 2)
        }
        for y in minY..<maxY {
            let v = ((Double(y) + 0.5) / scale - label.origin.y) * label.scale - 0.5
            let y0 = Int(v.rounded(.down))
            let ty = v - Double(y0)
            let rows = [y0, y0 + 1].compactMap { $0 >= 0 && $0 < mask.height ? ink[$0] : nil }
            guard let first = rows.map(\.lowerBound).min(), let last = rows.map(\.upperBound).max() else { continue }
            // A sample reads columns x0 and x0 + 1: ink in first…last reaches x0 in first − 1…last,
            // the canvas columns from X(first − 1) up to, not including, X(last + 1).
            for x in max(minX, canvasX(first - 1, .down))..<min(maxX, canvasX(last + 1, .up)) {
                let u = ((Double(x) + 0.5) / scale - label.origin.x) * label.scale - 0.5
                let x0 = Int(u.rounded(.down))
                let tx = u - Double(x0)
                let top = maskValue(x0, y0) + (maskValue(x0 + 1, y0) - maskValue(x0, y0)) * tx
                let bottom = maskValue(x0, y0 + 1) + (maskValue(x0 + 1, y0 + 1) - maskValue(x0, y0 + 1)) * tx
                let value = UInt32(max(0, min(255, (top + (bottom - top) * ty).rounded())))
                guard value > 0 else { continue }
                words[words.startIndex + y * wordsPerRow + x / 4] |= value << UInt32((x % 4) * 8)
            }
        }
    }

    /// Each mask row's first and last column with coverage; nil for an empty row.
    static func inkSpans(_ mask: AlphaImage) -> [ClosedRange<Int>?] {
        mask.coverage.withUnsafeBufferPointer { coverage in
            (0..<mask.height).map { row in
                let start = row * mask.width
                guard let first = (start..<start + mask.width).first(where: { coverage[$0] != 0 }) else { return nil }
                let last = (start..<start + mask.width).last { coverage[$0] != 0 }!
                return (first - start)...(last - start)
            }
        }
    }
}

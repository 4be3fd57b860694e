import LensModel

/// Lays images of one size out in a grid, row by row, on a neutral background.
package enum ContactSheet {
    /// `images` in a grid `columns` wide on dark grey, `gap` pixels between and around them. Each
    /// cell is as wide as the widest image and as tall as the tallest, the image at its top left;
    /// no images give one grey pixel.
    package static func compose(_ images: [RGBA8Image], columns: Int, gap: Int = 4) -> RGBA8Image {
        guard !images.isEmpty else { return RGBA8Image(width: 1, height: 1, pixels: [40, 40, 40, 255]) }
        let cellWidth = images.map(\.width).max()!
        let cellHeight = images.map(\.height).max()!
        let rows = (images.count + columns - 1) / columns
        let width = columns * cellWidth + (columns + 1) * gap
        let height = rows * cellHeight + (rows + 1) * gap
        var pixels = [UInt8](repeating: 40, count: width * height * 4)
        for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = 255 }
        for (index, image) in images.enumerated() {
            let originX = gap + (index % columns) * (cellWidth + gap)
            let originY = gap + (index / columns) * (cellHeight + gap)
            let count = image.width * 4
            for y in 0..<image.height {
                let source = y * count
                let target = ((originY + y) * width + originX) * 4
                pixels.replaceSubrange(target..<(target + count), with: image.pixels[source..<(source + count)])
            }
        }
        return RGBA8Image(width: width, height: height, pixels: pixels)
    }
}

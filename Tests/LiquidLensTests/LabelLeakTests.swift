import Foundation
import LiquidLens
import Testing

/// No glyphs where the glass isn't: what the label row adds to a frame lies on its glyphs (plus
/// the fringe band) or under a glass, and nowhere is it a one-channel fragment — a glyph piece
/// seen by only the red or the blue taps of the fringe, far from any whole glyph.
@Suite("Label row: no glyph fragments")
struct LabelLeakTests {
    /// One frame to check: a built-in scene in an appearance, or a built-in animation at a time.
    struct Frame: CustomTestStringConvertible, Sendable {
        let name: String
        let scene: Scene
        var testDescription: String { name }
    }

    static let frames: [Frame] =
        BuiltInScene.allCases.flatMap { example in
            [ControlAppearance.light, .dark].map {
                Frame(name: "\(example.rawValue) \($0.rawValue)", scene: example.scene(appearance: $0))
            }
        }
        + BuiltInAnimation.allCases.flatMap { animation in
            stride(from: 0.0, through: animation.duration, by: 0.2).map {
                Frame(name: "\(animation.rawValue) at \($0) s", scene: animation.frame(at: $0))
            }
        }

    /// A channel moved by the label: more than this many levels counts.
    static let moved = 8
    /// A pixel is one-channel when its other channels moved less than this share of the largest.
    static let oneChannelShare = 0.2

    @Test("The label row adds nothing away from its glyphs and glass, and no one-channel fragments", arguments: frames)
    func noFragments(_ frame: Frame) throws {
        let parameters = try resolve(frame.scene)
        var bare = parameters
        bare.labelWords = [UInt32](repeating: 0, count: parameters.labelWords.count)
        let with = try render(parameters, on: .cpu)
        let without = try render(bare, on: .cpu)
        let width = with.width
        let height = with.height
        let scale = frame.scene.canvas.scale
        // The fringe's reach at the silhouette; a pixel more for antialiasing.
        let band = Int((Aberration.segmentLens.amount * scale).rounded(.up)) + 1
        let glyph = (0..<width * height).map { AppleLensTests.labelCoverage(parameters, $0 % width, $0 / width) != 0 }
        let near = Self.dilated(glyph, width: width, height: height, by: band)
        let glass = parameters.regions.map(\.lens)
        var whole = [Bool](repeating: false, count: width * height)
        var oneChannel: [(Int, Int)] = []
        var stray: [(Int, Int)] = []
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                let deltas = (0..<3).map { abs(Int(with.pixels[index * 4 + $0]) - Int(without.pixels[index * 4 + $0])) }
                let largest = deltas.max()!
                guard largest > Self.moved else { continue }
                let others = deltas.sorted()[0...1]
                if others.allSatisfy({ Double($0) < Self.oneChannelShare * Double(largest) }) {
                    oneChannel.append((x, y))
                } else {
                    whole[index] = true
                }
                let underGlass = glass.contains { x >= $0.x0 && x < $0.x1 && y >= $0.y0 && y < $0.y1 }
                if !near[index] && !underGlass { stray.append((x, y)) }
            }
        }
        let fringe = Self.dilated(whole, width: width, height: height, by: band)
        let fragments = oneChannel.filter { !fringe[$0.1 * width + $0.0] }
        #expect(stray.isEmpty, "\(frame.name): label ink away from glyphs and glass at \(stray.prefix(5))")
        #expect(fragments.isEmpty, "\(frame.name): one-channel glyph fragments at \(fragments.prefix(5))")
    }

    /// `mask` grown by `radius` pixels (a square neighbourhood), separably.
    static func dilated(_ mask: [Bool], width: Int, height: Int, by radius: Int) -> [Bool] {
        var rows = [Bool](repeating: false, count: mask.count)
        for y in 0..<height {
            var next = Int.max
            for x in stride(from: width - 1, through: 0, by: -1) {
                if mask[y * width + x] { next = x }
                rows[y * width + x] = next - x <= radius
            }
            var last = -radius - 1
            for x in 0..<width {
                if mask[y * width + x] { last = x }
                if x - last <= radius { rows[y * width + x] = true }
            }
        }
        var result = [Bool](repeating: false, count: mask.count)
        for x in 0..<width {
            var last = -radius - 1
            for y in 0..<height {
                if rows[y * width + x] { last = y }
                if y - last <= radius { result[y * width + x] = true }
            }
            var next = Int.max
            for y in stride(from: height - 1, through: 0, by: -1) {
                if rows[y * width + x] { next = y }
                if next - y <= radius { result[y * width + x] = true }
            }
        }
        return result
    }
}

import Foundation

/// A half-open rectangle of pixels: x0 ..< x1, y0 ..< y1.
package struct PixelRegion: Sendable, Equatable {
    /// First column inside the region.
    package var x0: Int
    /// First row inside the region.
    package var y0: Int
    /// First column past the region (exclusive).
    package var x1: Int
    /// First row past the region (exclusive).
    package var y1: Int

    /// The region with these bounds, taken as given (not clamped or ordered).
    package init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    /// Columns covered; 0 when `x1` ≤ `x0`.
    package var width: Int { max(0, x1 - x0) }
    /// Rows covered; 0 when `y1` ≤ `y0`.
    package var height: Int { max(0, y1 - y0) }
    /// Whether the region covers no pixel.
    package var isEmpty: Bool { width == 0 || height == 0 }

    /// The pixels whose area meets the rectangle of points given in pixel units, grown by `margin`,
    /// clamped to a `width`×`height` canvas.
    package init(
        covering minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double, margin: Double, width: Int, height: Int
    ) {
        x0 = min(width, max(0, Int((minX - margin).rounded(.down))))
        y0 = min(height, max(0, Int((minY - margin).rounded(.down))))
        x1 = max(x0, min(width, Int((maxX + margin).rounded(.up))))
        y1 = max(y0, min(height, Int((maxY + margin).rounded(.up))))
    }

    /// The pixels in both regions (empty when they do not meet).
    package func intersection(_ other: PixelRegion) -> PixelRegion {
        let x0 = max(self.x0, other.x0)
        let y0 = max(self.y0, other.y0)
        return PixelRegion(x0: x0, y0: y0, x1: max(x0, min(x1, other.x1)), y1: max(y0, min(y1, other.y1)))
    }

    /// The smallest region holding both; an empty region adds nothing.
    package func union(_ other: PixelRegion) -> PixelRegion {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return PixelRegion(
            x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
    }
}

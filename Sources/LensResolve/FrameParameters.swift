import Foundation
import LensModel

/// Where each pass of one lens runs.
package struct LensRegions: Sendable, Equatable {
    /// Where the group's glass and its drop shadow can show: the lens pass.
    package var lens: PixelRegion
    /// The box lens samples are clamped into (the frost tiles cover every sample inside it).
    package var source: PixelRegion
}

/// One frame, resolved for the backends: sizes in pixels, colours in linear light, the backdrop
/// and label rasterised. Both backends consume exactly this and never re-derive scene semantics.
public struct FrameParameters: Sendable {
    /// Frame width in pixels.
    public var width: Int { Int(frame.width) }
    /// Frame height in pixels.
    public var height: Int { Int(frame.height) }
    /// Backdrop pixels packed `r | g << 8 | b << 16 | a << 24`, 8-bit sRGB.
    package var backdrop: [UInt32]
    /// Label coverage bytes packed four per word, `frame.labelWordsPerRow` words per row; the
    /// lifted label, when there is one, follows at `frame.liftedLabelWordOffset`.
    package var labelWords: [UInt32]
    /// The frame's part of the parameter block: size, label layout and colours.
    package var frame: FrameParams
    /// One entry per glass group, in drawing order: the progressive blurs' bands first
    /// (`blurBandCount` of them), then the glass.
    package var lenses: [LensParams]
    /// How many of the first `lenses` are bands of progressive blurs, not glass.
    package var blurBandCount = 0
    /// The shapes of every group, `lenses[i].shapeOffset ..< shapeOffset + shapeCount`.
    package var shapes: [ShapeParams]
    /// Lens tiles (tile x, tile y, first candidate, candidate count), `lenses[i].tileOffset ..<
    /// tileOffset + tileCount`: only tiles some shape can reach, each with the shapes near it.
    package var tiles: [SIMD4<UInt32>]
    /// Candidate shape indices of every tile.
    package var tileShapes: [UInt32]
    /// Where each lens's passes run, one entry per entry of `lenses`.
    package var regions: [LensRegions]
    /// sRGB decode table, encode thresholds, then the frost kernels (see `TableLayout`).
    package var tables: [Float]
    /// Layers over everything, straight-alpha sRGB packed like the backdrop; empty when the scene
    /// has none (its tiles follow the lenses' in `tiles`, see `frame.foregroundTileOffset`).
    package var foreground: [UInt32]
    /// What the frame shows, for datasets: made when the resolver was asked to annotate, else nil.
    public package(set) var annotations: FrameAnnotations?

    /// A frame from its resolved parts, taken as given; no foreground by default.
    package init(
        backdrop: [UInt32], labelWords: [UInt32], frame: FrameParams, lenses: [LensParams], shapes: [ShapeParams],
        tiles: [SIMD4<UInt32>], tileShapes: [UInt32], regions: [LensRegions], tables: [Float],
        foreground: [UInt32] = []
    ) {
        self.foreground = foreground
        self.shapes = shapes
        self.tiles = tiles
        self.tileShapes = tileShapes
        self.backdrop = backdrop
        self.labelWords = labelWords
        self.frame = frame
        self.lenses = lenses
        self.regions = regions
        self.tables = tables
    }

    /// Some glass lies on glass: the composite starts each frame as a copy of the backdrop.
    package var usesComposite: Bool { lenses.contains { $0.readsComposite != 0 } }

    /// The whole canvas.
    package var fullFrame: PixelRegion { PixelRegion(x0: 0, y0: 0, x1: width, y1: height) }
}

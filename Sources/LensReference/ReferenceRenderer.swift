import Dispatch
import Foundation
import LensModel
import LensResolve

/// The CPU reference backend: runs the same passes as the Vulkan backend (compose, the composite
/// reset where glass lies on glass, then per lens frost horizontal, frost vertical, lens) with the
/// shader functions in Swift, parallel over rows.
/// Like the Vulkan backend it keeps its buffers between frames and skips, through `FrameReuse`,
/// the composing and blurring a previous frame already did. One frame at a time: a lock guards
/// its buffers, so it may render from any thread (as the Vulkan backend's stand-in does).
package final class ReferenceRenderer: @unchecked Sendable {
    private let lock = NSLock()
    private let reuse = FrameReuse()
    private var canvasSize = (width: 0, height: 0)
    private var base = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)
    private var scratch = UnsafeMutableBufferPointer<SIMD4<Float>>(start: nil, count: 0)
    private var frosted = UnsafeMutableBufferPointer<SIMD4<Float>>(start: nil, count: 0)
    private var composite = UnsafeMutableBufferPointer<UInt32>(start: nil, count: 0)

    /// A renderer with no buffers yet; the first frame allocates them.
    package init() {}

    deinit { release() }

    /// Renders one resolved frame to 8-bit sRGB pixels.
    package func render(_ parameters: FrameParameters) -> RGBA8Image {
        lock.withLock {
            if canvasSize != (parameters.width, parameters.height) {
                release()
                let count = parameters.width * parameters.height
                base = Self.zeroed(count)
                scratch = Self.zeroed(FrostPyramid.scratchCount(width: parameters.width, height: parameters.height))
                frosted = Self.zeroed(count)
                composite = Self.zeroed(count)
                canvasSize = (parameters.width, parameters.height)
                reuse.invalidate()
            }
            let plan = reuse.plan(parameters)
            let planned = plan.parameters
            if plan.baseFromBackdrop { _ = base.update(fromContentsOf: planned.backdrop) }
            if let region = plan.composeRegion {
                let context = Self.context(
                    planned, scratch: scratch, frosted: frosted, output: base, composite: composite)
                forEachPixel(in: region) { x, y in context.compose(x, y) }
            }
            if planned.usesComposite {
                _ = composite.update(fromContentsOf: planned.backdrop)
            }
            var pixels = [UInt32](base)
            pixels.withUnsafeMutableBufferPointer { output in
                Self.runLenses(
                    Self.context(planned, scratch: scratch, frosted: frosted, output: output, composite: composite),
                    planned)
            }
            return RGBA8Image(width: parameters.width, height: parameters.height, packed: pixels)
        }
    }

    private func release() {
        free(base.baseAddress)
        free(scratch.baseAddress)
        free(frosted.baseAddress)
        free(composite.baseAddress)
        canvasSize = (0, 0)
    }

    /// `count` zeroed elements (all-zero bits are 0 and 0.0 for the element types used here).
    /// calloc hands large blocks over as the kernel's zero pages, so a frame faults in only the
    /// pages it touches: the frost buffers of a 1206×2622 frame are 114 MB, its frost tiles a
    /// fraction of that.
    static func zeroed<Element: BitwiseCopyable>(_ count: Int) -> UnsafeMutableBufferPointer<Element> {
        let memory = calloc(max(count, 1), MemoryLayout<Element>.stride)!
        return UnsafeMutableBufferPointer(start: memory.bindMemory(to: Element.self, capacity: count), count: count)
    }

    static func context(
        _ parameters: FrameParameters, scratch: UnsafeMutableBufferPointer<SIMD4<Float>>,
        frosted: UnsafeMutableBufferPointer<SIMD4<Float>>, output: UnsafeMutableBufferPointer<UInt32>,
        composite: UnsafeMutableBufferPointer<UInt32>
    ) -> ShaderContext {
        ShaderContext(
            frame: parameters.frame, tables: parameters.tables, backdrop: parameters.backdrop,
            labelBytes: parameters.labelWords, shapes: parameters.shapes, tiles: parameters.tiles,
            tileShapes: parameters.tileShapes, foregroundPixels: parameters.foreground, scratch: scratch,
            frosted: frosted, outputPixels: output, compositePixels: composite)
    }

    private static func runLenses(_ context: ShaderContext, _ parameters: FrameParameters) {
        for (lens, regions) in zip(parameters.lenses, parameters.regions) {
            let canvas = parameters.fullFrame
            if lens.frostLevel >= FrostPyramid.firstStoredLevel { storeLevelTexels(lens, context) }
            forEachTile(lens.rowTileOffset, lens.rowTileCount, clippedTo: canvas, context) { tileContext, x, y in
                tileContext.frost(x, y, lens, axis: 0)
            }
            forEachTile(lens.frostTileOffset, lens.frostTileCount, clippedTo: canvas, context) { tileContext, x, y in
                tileContext.frost(x, y, lens, axis: 1)
            }
            for run in lensTileRuns(lens) {
                forEachTile(run.first, run.count, clippedTo: regions.lens, context, reachesLabel: run.reachesLabel) {
                    tileContext, x, y in tileContext.lens(x, y, lens)
                }
            }
        }
        let frame = parameters.frame
        forEachTile(frame.foregroundTileOffset, frame.foregroundTileCount, clippedTo: parameters.fullFrame, context) {
            tileContext, x, y in tileContext.overlay(x, y)
        }
    }

    /// The frost's axis 2 (stored levels): every lane of every row tile's workgroup, tiles in
    /// parallel. Tiles that share a texel write the same value.
    private static func storeLevelTexels(_ lens: LensParams, _ context: ShaderContext) {
        nonisolated(unsafe) let context = context
        DispatchQueue.concurrentPerform(iterations: Int(lens.rowTileCount)) { index in
            let tile = context.tiles[Int(lens.rowTileOffset) + index]
            for y in 0..<Int32(TableLayout.tileSize) {
                for x in 0..<Int32(TableLayout.tileSize) {
                    context.storeLevelTexels(tile, lane: SIMD2(x, y), lens)
                }
            }
        }
    }

    /// A lens's tiles that reach a label glyph, then those that do not (the shader's two variants).
    static func lensTileRuns(_ lens: LensParams) -> [(first: UInt32, count: UInt32, reachesLabel: Bool)] {
        [
            (lens.tileOffset, lens.labelTileCount, true),
            (lens.tileOffset + lens.labelTileCount, lens.tileCount - lens.labelTileCount, false),
        ]
    }

    /// Tiles `offset ..< offset + count` of the tile list in parallel, each with its candidate
    /// shapes; pixels outside `region` skipped.
    static func forEachTile(
        _ offset: UInt32, _ count: UInt32, clippedTo region: PixelRegion, _ context: ShaderContext,
        reachesLabel: Bool = true,
        _ body: (ShaderContext, Int, Int) -> Void
    ) {
        guard count > 0 else { return }
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let body = body
            nonisolated(unsafe) let context = context
            DispatchQueue.concurrentPerform(iterations: Int(count)) { index in
                let tile = context.tiles[Int(offset) + index]
                var tileContext = context
                tileContext.tileCandidates = SIMD2(tile.z, TableLayout.candidateCount(tile.w))
                tileContext.tileIsGlassFree = TableLayout.isGlassFree(tile.w)
                tileContext.tileReachesLabel = reachesLabel
                let size = TableLayout.tileSize
                for y in max(region.y0, Int(tile.y) * size)..<min(region.y1, Int(tile.y + 1) * size) {
                    for x in max(region.x0, Int(tile.x) * size)..<min(region.x1, Int(tile.x + 1) * size) {
                        body(tileContext, x, y)
                    }
                }
            }
        }
    }

    /// Rows of `region` in parallel; each row's pixels in order. Rows write disjoint pixels.
    private func forEachPixel(in region: PixelRegion, _ body: (Int, Int) -> Void) {
        guard !region.isEmpty else { return }
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: region.height) { row in
                let y = region.y0 + row
                for x in region.x0..<region.x1 { body(x, y) }
            }
        }
    }
}

import Dispatch
import LensCore

/// The CPU reference backend: runs the same passes as the Vulkan backend (compose, then per lens
/// frost horizontal, frost vertical, lens) with the shader functions in Swift, parallel over rows.
public final class ReferenceRenderer {
    public init() {}

    /// Renders one resolved frame to 8-bit sRGB pixels.
    public func render(_ parameters: FrameParameters) -> RGBA8Image {
        let width = parameters.width
        let height = parameters.height
        var output = [UInt32](repeating: 0, count: width * height)
        var scratch = [SIMD4<Float>](repeating: .zero, count: width * height)
        var frosted = [SIMD4<Float>](repeating: .zero, count: width * height)
        parameters.tables.withUnsafeBufferPointer { tables in
            parameters.backdrop.withUnsafeBufferPointer { backdrop in
                parameters.labelWords.withUnsafeBufferPointer { labels in
                    parameters.shapes.withUnsafeBufferPointer { shapes in
                        scratch.withUnsafeMutableBufferPointer { scratch in
                            frosted.withUnsafeMutableBufferPointer { frosted in
                                output.withUnsafeMutableBufferPointer { output in
                                    let context = ShaderContext(
                                        frame: parameters.frame, tables: tables, backdrop: backdrop, labelBytes: labels,
                                        shapes: shapes,
                                        scratch: scratch, frosted: frosted, outputPixels: output)
                                    Self.run(context, parameters)
                                }
                            }
                        }
                    }
                }
            }
        }
        return RGBA8Image(width: width, height: height, packed: output)
    }

    private static func run(_ context: ShaderContext, _ parameters: FrameParameters) {
        forEachPixel(in: parameters.fullFrame) { x, y in context.compose(x, y) }
        for (lens, regions) in zip(parameters.lenses, parameters.regions) {
            forEachPixel(in: regions.frostRows) { x, y in context.frost(x, y, lens, axis: 0) }
            forEachPixel(in: regions.source) { x, y in context.frost(x, y, lens, axis: 1) }
            forEachPixel(in: regions.lens) { x, y in context.lens(x, y, lens) }
        }
    }

    /// Rows of `region` in parallel; each row's pixels in order. Rows write disjoint pixels.
    private static func forEachPixel(in region: PixelRegion, _ body: (Int, Int) -> Void) {
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

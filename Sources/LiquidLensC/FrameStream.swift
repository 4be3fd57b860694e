import Foundation
import LiquidLens

/// A batch's frames rendered on a thread of their own and handed over in order: the renderer
/// (`LensRenderer.renderBatch`, frames in flight on Vulkan) works on the next frames while the
/// caller takes this one, up to `capacity` frames ahead.
final class FrameStream: @unchecked Sendable {
    /// Thrown inside the batch to stop it when the caller closed the stream.
    private struct Closed: Error {}

    /// The frames of the shard, in order.
    let indices: [Int]
    private let condition = NSCondition()
    private var ready: [RenderedFrame] = []
    private var finished = false
    private var failure: (any Error)?
    private var closed = false
    private let capacity = 2
    private let done = DispatchSemaphore(value: 0)

    /// Starts rendering `manifest`'s frames of shard `shard` of `shards` on a renderer like
    /// `handle`'s, with their annotations and masks as `extras` asks.
    init(_ manifest: BatchManifest, shard: Int, of shards: Int, handle: RendererHandle, extras: FrameExtras) throws {
        guard (1...Limits.batchFrames).contains(shards), (0..<shards).contains(shard) else {
            throw Failure(
                kind: "scene", message: "expected a shard i of n with 0 ≤ i < n ≤ \(Limits.batchFrames)",
                keyPath: "shard")
        }
        indices = Array(manifest.shard(shard, of: shards))
        guard let first = indices.first else {
            finished = true
            done.signal()
            return
        }
        let job = RenderJob(frames: indices.count, scene: try manifest.scene(first).scene, scale: manifest.scale)
        let renderer = UncheckedRenderer(renderer: try handle.batchRenderer(for: job))
        // The thread alone uses the renderer from here on, and lets it go (its device shut down)
        // before `close` returns.
        Thread { [self] in
            defer {
                renderer.renderer = nil
                done.signal()
            }
            do {
                try render(manifest, with: renderer.renderer!, extras: extras)
                finish(nil)
            } catch {
                finish(error is Closed ? nil : error)
            }
        }.start()
    }

    /// The next frame, nil after the last; rethrows what stopped the batch.
    func next() throws -> RenderedFrame? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        if !ready.isEmpty {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the batch and waits for its thread: frames not taken are dropped.
    func close() {
        condition.withLock {
            closed = true
            ready.removeAll()
            condition.broadcast()
        }
        done.wait()
        done.signal()
    }

    /// Renders every frame of `indices` into the queue, stopping when the stream is closed.
    private func render(_ manifest: BatchManifest, with renderer: LensRenderer, extras: FrameExtras) throws {
        let cache = ResolveCache()
        var carried: [Int: (FrameAnnotations?, FrameMasks?)] = [:]
        try renderer.renderBatch(count: indices.count) { position in
            let index = indices[position]
            let parameters = try resolve(
                index, of: manifest, cache: cache, annotating: extras.contains(.annotations))
            carried[position] = extras.of(parameters)
            return parameters
        } deliver: { position, image in
            let frame = try RenderedFrame(
                index: indices[position], image: image, extras: carried.removeValue(forKey: position) ?? (nil, nil))
            try hand(frame)
        }
    }

    /// Frame `index` of `manifest`, resolved; a scene's error names the frame as `batch` does.
    private func resolve(_ index: Int, of manifest: BatchManifest, cache: ResolveCache, annotating: Bool) throws
        -> FrameParameters
    {
        do {
            let (scene, directory) = try manifest.scene(index)
            return try LensRenderer.resolve(
                scene, baseDirectory: directory, scale: manifest.scale, cache: cache, annotating: annotating)
        } catch {
            throw Failure(describing: error, prefix: "frame \(index + 1) (\(manifest.outputStem(index))): ")
        }
    }

    /// Queues `frame` once there is room; throws `Closed` when the caller closed the stream.
    private func hand(_ frame: RenderedFrame) throws {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= capacity && !closed { condition.wait() }
        if closed { throw Closed() }
        ready.append(frame)
        condition.broadcast()
    }

    /// Marks the batch ended, by `error` when it failed.
    private func finish(_ error: (any Error)?) {
        condition.withLock {
            finished = true
            failure = error
            condition.broadcast()
        }
    }
}

/// A renderer handed to the one thread that uses it.
private final class UncheckedRenderer: @unchecked Sendable {
    var renderer: LensRenderer?

    init(renderer: LensRenderer) {
        self.renderer = renderer
    }
}

/// The stream `pointer` holds.
private func stream(_ pointer: OpaquePointer) -> FrameStream {
    Unmanaged<FrameStream>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

/// Opens the frames of shard `shard` of `shards` (0 of 1: all) of a batch manifest, given as JSON
/// `text` (relative paths read from `base_directory`, null: the working folder) or as the `path`
/// of a manifest file, rendered on a renderer of `renderer`'s backend and device, each frame with
/// its annotations and masks as `extras` asks (as `liquidlens_render`'s does). Take the frames
/// with `liquidlens_frames_next`; close with `liquidlens_frames_close`. Null with `*error` set when the manifest is wrong.
@_cdecl("liquidlens_frames_open")
public func framesOpen(
    _ renderer: OpaquePointer, _ text: UnsafePointer<CChar>?, _ path: UnsafePointer<CChar>?,
    _ baseDirectory: UnsafePointer<CChar>?, _ shard: Int, _ shards: Int, _ extras: Int32, _ error: ErrorOut
) -> OpaquePointer? {
    reportingFailure(to: error, fallback: nil) {
        let source = DocumentSource(text: string(text), path: string(path), baseDirectory: string(baseDirectory))
        let frames = try FrameStream(
            try source.manifest(), shard: shard, of: shards, handle: LiquidLensC.renderer(renderer),
            extras: FrameExtras(rawValue: extras))
        return OpaquePointer(Unmanaged.passRetained(frames).toOpaque())
    }
}

/// The number of frames the stream yields.
@_cdecl("liquidlens_frames_count")
public func framesCount(_ pointer: OpaquePointer) -> Int {
    stream(pointer).indices.count
}

/// The stream's next frame, in the manifest's order, waiting for it to render; null after the
/// last, or with `*error` set when a frame failed (every later call reports the same failure).
@_cdecl("liquidlens_frames_next")
public func framesNext(_ pointer: OpaquePointer, _ error: ErrorOut) -> OpaquePointer? {
    reportingFailure(to: error, fallback: nil) {
        try stream(pointer).next().map(retained)
    }
}

/// Stops the stream's rendering, waits for it and frees the stream.
@_cdecl("liquidlens_frames_close")
public func framesClose(_ pointer: OpaquePointer?) {
    guard let pointer else { return }
    stream(pointer).close()
    Unmanaged<FrameStream>.fromOpaque(UnsafeRawPointer(pointer)).release()
}

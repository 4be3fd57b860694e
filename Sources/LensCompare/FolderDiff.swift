import Foundation
import LensIO
import LensModel

extension DiffReport {
    /// Compares every PNG under `expected` with the PNG at the same relative path under `actual`,
    /// `jobs` pairs at a time. An expected image without an actual one is missing, an actual
    /// image without an expected one extra: each a failure unless the configuration allows it;
    /// a report that compared nothing fails unless it allows that. An unreadable image or a
    /// size mismatch fails its pair. With an `imageFolder`, each pair's images are linked (or
    /// copied) there and heatmaps written, for the HTML report. `progress` is called with the
    /// pairs done and the total after each pair, from any thread.
    public static func compareFolders(
        actual: URL, expected: URL, configuration: DiffConfiguration = DiffConfiguration(), imageFolder: URL? = nil,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws -> DiffReport {
        let start = Date()
        let stopwatch = Stopwatch()
        let expectedNames = try pngFiles(in: expected)
        let actualNames = try pngFiles(in: actual)
        let names = Array(Set(expectedNames).union(actualNames)).sorted()
        let expectedSet = Set(expectedNames)
        let actualSet = Set(actualNames)
        let results = try parallelMap(count: names.count, jobs: jobs, progress: progress) { index in
            let name = names[index]
            let expectedURL = expected.appendingPathComponent(name)
            let actualURL = actual.appendingPathComponent(name)
            guard expectedSet.contains(name) else {
                return Pair(
                    name: name, outcome: .extra, diff: nil, thresholds: configuration.thresholds(for: name),
                    problems: ["no expected image (\(expectedURL.path))"],
                    images: Images(actual: try place(actualURL, in: imageFolder, index, name, "actual")),
                    isAllowed: configuration.allowExtra)
            }
            guard actualSet.contains(name) else {
                return Pair(
                    name: name, outcome: .missing, diff: nil, thresholds: configuration.thresholds(for: name),
                    problems: ["no actual image (\(actualURL.path))"],
                    images: Images(expected: try place(expectedURL, in: imageFolder, index, name, "expected")),
                    isAllowed: configuration.allowMissing)
            }
            return try compareFiles(
                name: name, actual: actualURL, expected: expectedURL, configuration: configuration,
                imageFolder: imageFolder, index: index)
        }
        var report = DiffReport(
            title: "\(actual.path) vs \(expected.path)", pairs: results, date: start, seconds: stopwatch.seconds)
        report.allowsEmpty = configuration.allowEmpty
        return report
    }

    /// Reads and compares one pair of files; an unreadable file fails the pair rather than the run.
    static func compareFiles(
        name: String, actual: URL, expected: URL, configuration: DiffConfiguration, imageFolder: URL?, index: Int
    ) throws -> Pair {
        let start = Stopwatch()
        let thresholds = configuration.thresholds(for: name)
        let actualImage: RGBA8Image
        let expectedImage: RGBA8Image
        // A pipe or a device found in a folder is never opened: reading it would wait forever.
        let notFiles = [actual, expected].compactMap { url in FileAccess.notAFile(url).map { "\(url.path): \($0)" } }
        guard notFiles.isEmpty else {
            return Pair(
                name: name, outcome: .failed, diff: nil, thresholds: thresholds, problems: notFiles,
                seconds: start.seconds)
        }
        do {
            (actualImage, expectedImage) = try PNGCodec.readPair(actual, expected)
        } catch let error as ImageFileError {
            return Pair(
                name: name, outcome: .failed, diff: nil, thresholds: thresholds, problems: [error.description],
                seconds: start.seconds)
        }
        let compared = try Pair.compare(
            name: name, actual: actualImage, expected: expectedImage, configuration: configuration)
        var images = Images(
            expected: try place(expected, in: imageFolder, index, name, "expected"),
            actual: try place(actual, in: imageFolder, index, name, "actual"))
        if let imageFolder, let diff = compared.diff {
            let stem = imageFolder.appendingPathComponent(Pair.assetStem(index: index, name: name)).path
            images.heatmap = try Pair.writeHeatmap(diff, actualImage, expectedImage, stem: stem)
        }
        return Pair(
            name: name, outcome: compared.outcome, diff: compared.diff, thresholds: thresholds,
            problems: compared.problems, images: images, seconds: start.seconds)
    }

    /// Puts `source` in the image folder as `<stem>-<role>.png`: a hard link when the file system
    /// allows one (instant, no space), a copy otherwise; nil without a folder.
    static func place(_ source: URL, in folder: URL?, _ index: Int, _ name: String, _ role: String) throws -> URL? {
        guard let folder else { return nil }
        let target = folder.appendingPathComponent("\(Pair.assetStem(index: index, name: name))-\(role).png")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        unlink(target.path)
        if link(source.path, target.path) == 0 { return target }
        let data: Data
        do throws(FileAccess.Problem) {
            data = try FileAccess.read(source, limit: PNGCodec.maxFileBytes)
        } catch {
            throw ImageFileError(description: "cannot read \(source.path): \(error)")
        }
        try AtomicFile.write(data, to: target)
        return target
    }

    /// Relative paths of the PNG files under `folder`, sorted; an error names a folder that is
    /// missing or is not one.
    static func pngFiles(in folder: URL) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw ImageFileError(description: "\(folder.path): no such folder")
        }
        guard isFolder.boolValue else {
            throw ImageFileError(description: "\(folder.path) is not a folder")
        }
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var names: [String] = []
        while let path = enumerator.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            // Temporary files of an interrupted atomic write are never complete images.
            if path.lowercased().hasSuffix(".png") && !name.hasPrefix(".") { names.append(path) }
        }
        return names.sorted()
    }

    /// `body` for 0..<count on `jobs` threads, results in index order; the first error stops the
    /// workers taking new indices and is rethrown.
    static func parallelMap<Result: Sendable>(
        count: Int, jobs: Int, progress: (@Sendable (Int, Int) -> Void)?, _ body: @Sendable (Int) throws -> Result
    ) throws -> [Result] {
        let state = ParallelState<Result>(count: count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, count))) { _ in
            while let index = state.next() {
                do {
                    let result = try body(index)
                    let done = state.store(result, at: index)
                    progress?(done, count)
                } catch {
                    state.fail(error)
                }
            }
        }
        return try state.results()
    }
}

/// The shared state of ``DiffReport/parallelMap(count:jobs:progress:_:)``, behind one lock.
private final class ParallelState<Result>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result?]
    private var nextIndex = 0
    private var done = 0
    private var error: (any Error)?

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func next() -> Int? {
        lock.withLock {
            guard error == nil, nextIndex < slots.count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    func store(_ result: Result, at index: Int) -> Int {
        lock.withLock {
            slots[index] = result
            done += 1
            return done
        }
    }

    func fail(_ failure: any Error) { lock.withLock { error = error ?? failure } }

    func results() throws -> [Result] {
        try lock.withLock {
            if let error { throw error }
            return slots.map { $0! }
        }
    }
}

import Foundation

/// Progress on stderr: a redrawn bar on a terminal (frames or pairs, per second, ETA), plain
/// lines every tenth of the run otherwise, nothing with --quiet. Safe to advance from any thread.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private var total: Int
    private let quiet: Bool
    /// What is counted: `frames`, `pairs`.
    private let unit: String
    private let terminal = isatty(2) == 1
    private let start = Date()
    private var done = 0
    private var lastLine = -1

    init(total: Int, quiet: Bool, unit: String = "frames") {
        self.total = total
        self.quiet = quiet
        self.unit = unit
    }

    /// One more done; `total` corrects the count when it is learned only once the work starts.
    func advance(total: Int? = nil) {
        lock.withLock {
            if let total { self.total = total }
            advanceLocked()
        }
    }

    private func advanceLocked() {
        done += 1
        guard !quiet else { return }
        let elapsed = Date().timeIntervalSince(start)
        let rate = Double(done) / max(elapsed, 1e-9)
        let eta = Double(total - done) / max(rate, 1e-9)
        let status =
            "\(done)/\(total) \(unit)  \(String(format: "%.1f", rate)) \(unit)/s  ETA \(String(format: "%.1f", eta)) s"
        if terminal {
            let width = 30
            let filled = width * done / max(total, 1)
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            FileHandle.standardError.write(Data("\r[\(bar)] \(status)".utf8))
        } else {
            let tenth = done * 10 / max(total, 1)
            if tenth != lastLine {
                lastLine = tenth
                printError(status)
            }
        }
    }

    func finish() {
        if !quiet && terminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

/// Ctrl-C during a long run: the loop finishes the frame in flight, cleans up and says how to go on.
enum Interruption {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var flag = false
    nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?

    static var requested: Bool { lock.withLock { flag } }

    static func watch() {
        signal(SIGINT, SIG_IGN)
        let signalSource = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signalSource.setEventHandler { lock.withLock { flag = true } }
        signalSource.resume()
        source = signalSource
    }
}

/// A run stopped by the user: exit 130, like a shell's Ctrl-C.
struct Interrupted: Error {
    let message: String
}

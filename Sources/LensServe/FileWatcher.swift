import Foundation
import LensIO
import LensModel

/// Watches one file for saves by another program: its size and modification time are looked at
/// every ``interval`` seconds, and when its text differs from the last text seen, ``onChange`` gets
/// it. A file that is missing or unreadable for a moment (an editor's rename-and-replace) is
/// looked at again next time.
package final class FileWatcher: @unchecked Sendable {
    /// Seconds between looks.
    package static let interval = 0.25
    /// Called on the watcher's thread with the file's new text.
    private let onChange: @Sendable (String) -> Void

    private let url: URL
    private let lock = NSLock()
    private var known: String
    private var stamp: FileStamp?
    private var stopped = false

    /// Watches `url`, whose text is `text` now, calling `onChange` with each new text.
    package init(url: URL, text: String, onChange: @escaping @Sendable (String) -> Void) {
        self.url = url
        self.onChange = onChange
        known = text
        stamp = FileStamp.of(url.path)
        let thread = Thread { [weak self] in
            while let watcher = self, watcher.look() {
                Thread.sleep(forTimeInterval: Self.interval)
            }
        }
        thread.name = "liquidlens file watcher"
        thread.start()
    }

    package func stop() {
        lock.withLock { stopped = true }
    }

    /// One look; false once stopped.
    private func look() -> Bool {
        lock.lock()
        guard !stopped else {
            lock.unlock()
            return false
        }
        let now = FileStamp.of(url.path)
        guard let now, stamp.map({ $0 != now }) ?? true,
            let data = try? FileAccess.read(url, limit: Limits.sceneFileBytes)
        else {
            lock.unlock()
            return true
        }
        stamp = now
        let text = String(decoding: data, as: UTF8.self)
        let changed = text != known
        known = text
        lock.unlock()
        if changed { onChange(text) }
        return true
    }
}

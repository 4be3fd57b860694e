import Foundation
import LensIO
import LensModel

/// The three standard streams, made safe to write whatever the shell did with them: a message
/// that cannot be written is dropped, never a reason to stop the work or to trap.
enum StandardStreams {
    /// Called first. A standard stream the shell closed (`2>&-`, `>&-`) is given a stand-in, so
    /// the first file this process opens never takes its number (report lines would land in an
    /// image): stdin and stderr get /dev/null, stdout a pipe with no reader, so that an output
    /// sent there (`-o -`) fails as a broken pipe instead of vanishing.
    static func secure() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where isClosed(descriptor) {
            if descriptor == STDOUT_FILENO {
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { continue }
                close(ends[0])
                // The write end may already be number 1 itself (the lowest free number).
                if ends[1] != descriptor {
                    dup2(ends[1], descriptor)
                    close(ends[1])
                }
            } else {
                let null = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
                if null >= 0 && null != descriptor {
                    dup2(null, descriptor)
                    close(null)
                }
            }
        }
    }

    /// Writes `text` and a newline on stderr in one write where it fits, so lines from processes
    /// sharing a log do not interleave; dropped when stderr is closed or its reader went away.
    static func writeError(_ text: String) {
        _ = write(text + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` on stderr without a newline (a progress bar redrawn in place).
    static func writeErrorPart(_ text: String) {
        _ = write(text, to: STDERR_FILENO)
    }

    /// Writes `text` on stdout now, past stdio's buffer (a line a waiting script reads at once);
    /// dropped when stdout is closed or its reader went away.
    static func writeOutputNow(_ text: String) {
        fflush(nil)
        _ = write(text, to: STDOUT_FILENO)
    }

    /// Writes `text` on stdout, where it is what the command makes (a listing, a script, a
    /// schema): a reader that went away is ``OutputReaderGone``, as for an image sent there.
    static func writeProduct(_ text: String) throws {
        fflush(nil)
        guard write(text, to: STDOUT_FILENO) else {
            if errno == EPIPE { throw OutputReaderGone(name: "standard output") }
            throw CommandFailure(message: "cannot write standard output: \(FileAccess.reason(errno))")
        }
    }

    private static func isClosed(_ descriptor: Int32) -> Bool {
        fcntl(descriptor, F_GETFD) == -1 && errno == EBADF
    }

    /// Writes all of `text`, going on after signals; false with `errno` set when the system refuses.
    private static func write(_ text: String, to descriptor: Int32) -> Bool {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return false }
            offset += count
        }
        return true
    }
}

func printError(_ text: String) {
    StandardStreams.writeError(text)
}

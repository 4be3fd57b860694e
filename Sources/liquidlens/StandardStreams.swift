import Foundation
import LensIO

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
        _ = writeAll(Data((text + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes `text` on stderr without a newline (a progress bar redrawn in place).
    static func writeErrorPart(_ text: String) {
        _ = writeAll(Data(text.utf8), to: STDERR_FILENO)
    }

    /// Writes `text` on stdout now, past stdio's buffer (a line a waiting script reads at once);
    /// dropped when stdout is closed or its reader went away.
    static func writeOutputNow(_ text: String) {
        fflush(nil)
        _ = writeAll(Data(text.utf8), to: STDOUT_FILENO)
    }

    /// Writes `text` on stdout, where it is what the command makes (a listing, a script, a
    /// schema), as an image sent there is written: a reader that went away is ``OutputReaderGone``.
    static func writeProduct(_ text: String) throws {
        fflush(nil)
        try StreamingOutput().write(Data(text.utf8))
    }

    private static func isClosed(_ descriptor: Int32) -> Bool {
        fcntl(descriptor, F_GETFD) == -1 && errno == EBADF
    }
}

func printError(_ text: String) {
    StandardStreams.writeError(text)
}

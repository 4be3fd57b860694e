import Foundation
import LensModel
import LiquidLens

/// This run's render-only frames/s against an earlier `--json` report, per workload and backend:
/// what `bench --compare` prints, and the rows slower than the allowed slowdown.
struct BenchComparison {
    /// One workload on one backend in both reports.
    struct Row {
        var workload: String
        var backend: String
        var earlierFramesPerSecond: Double
        var currentFramesPerSecond: Double
        /// Current over earlier: above 1 is faster now.
        var ratio: Double { currentFramesPerSecond / earlierFramesPerSecond }

        /// Slower than the earlier run by more than `percent` %.
        func isSlower(beyond percent: Double) -> Bool { ratio < 1 - percent / 100 }
    }

    let rows: [Row]
    /// Workload/backend pairs of this run the earlier report does not have.
    let unmatched: [String]

    init(current: BenchReport, earlier: BenchReport) {
        var rows: [Row] = []
        var unmatched: [String] = []
        for result in current.results {
            let previous = earlier.results.first { $0.workload == result.workload && $0.backend == result.backend }
            if let previous, previous.framesPerSecond > 0 {
                rows.append(
                    Row(
                        workload: result.workload, backend: result.backend,
                        earlierFramesPerSecond: previous.framesPerSecond,
                        currentFramesPerSecond: result.framesPerSecond))
            } else {
                unmatched.append("\(result.workload) on \(result.backend)")
            }
        }
        self.rows = rows
        self.unmatched = unmatched
    }

    /// Reads an earlier report; a file that is not one is an error in plain words.
    static func load(_ path: String) throws -> BenchReport {
        let data: Data
        do {
            data = try FileAccess.read(URL(fileURLWithPath: path), limit: Limits.sceneFileBytes)
        } catch {
            throw CommandFailure(message: "cannot read the earlier report \(path): \(error)")
        }
        do {
            let report = try JSONDecoder().decode(BenchReport.self, from: data)
            guard report.schemaVersion == BenchReport.schemaVersion else {
                throw CommandFailure(
                    message:
                        "\(path) is a version \(report.schemaVersion) report; this bench writes version \(BenchReport.schemaVersion)"
                )
            }
            return report
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(message: "\(path) is not a bench --json report")
        }
    }

    /// Rows slower than the earlier run by more than `percent` %.
    func regressions(beyond percent: Double) -> [Row] {
        rows.filter { $0.isSlower(beyond: percent) }
    }

    /// The lines `bench --compare` prints.
    func lines(against path: String, maxSlowdown percent: Double) -> [String] {
        var lines = ["\nCOMPARE (render-only frames/s, this run ÷ \(path); slower than \(percent.formatted) % fails):"]
        for row in rows {
            let verdict = row.isSlower(beyond: percent) ? "  SLOWER" : ""
            lines.append(
                "  \(row.workload.padding(toLength: BenchmarkWorkload.nameColumnWidth, withPad: " ", startingAt: 0)) \(row.backend.padding(toLength: 6, withPad: " ", startingAt: 0)) "
                    + String(
                        format: "%.1f → %.1f frames/s = %.2f×", row.earlierFramesPerSecond, row.currentFramesPerSecond,
                        row.ratio) + verdict)
        }
        lines += unmatched.map { "  \($0): not in the earlier report" }
        return lines
    }
}

import Foundation
import LensIO

extension DiffReport {
    /// The report as JUnit XML, in the Apache Ant format CI systems read (Jenkins, GitLab, GitHub
    /// test reporters): one `testsuite` whose `properties` are the default thresholds, one
    /// `testcase` per pair named by its path; a failing pair, or a missing or extra one not allowed,
    /// carries a `failure` whose message lists the broken thresholds and whose text holds every
    /// metric; an allowed missing or extra image is `skipped`. A run that compared nothing (and
    /// does not allow it) has one more test case, `(comparison)`, failing with type `empty`.
    public func junitXML(suiteName: String = "liquidlens diff", hostname: String = ProcessInfo.processInfo.hostName)
        -> String
    {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        // A run that compared nothing carries one more failing case, `(comparison)`.
        let comparisonCases = nothingCompared == nil ? 0 : 1
        let failures = pairs.filter(\.isFailure).count + comparisonCases
        let skipped = pairs.filter { !$0.wasCompared && !$0.isFailure }.count
        let className = suiteName.replacingOccurrences(of: " ", with: ".")
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites>
              <testsuite name="\(escape(suiteName))" package="\(escape(className))" id="0" \
            timestamp="\(formatter.string(from: date))" hostname="\(escape(hostname.isEmpty ? "localhost" : hostname))" \
            tests="\(pairs.count + comparisonCases)" failures="\(failures)" errors="0" skipped="\(skipped)" \
            time="\(String(format: "%.3f", seconds))">
                <properties>
                  <property name="title" value="\(escape(title))"/>
            \(thresholdProperties)    </properties>

            """
        for pair in pairs {
            xml += "    <testcase name=\"\(escape(pair.name))\" classname=\"\(escape(className))\" "
            xml += "time=\"\(String(format: "%.3f", pair.seconds))\""
            if pair.outcome == .passed {
                xml += "/>\n"
            } else if !pair.isFailure {
                xml +=
                    ">\n      <skipped message=\"\(escape(pair.problems.joined(separator: "; ")))\"/>\n    </testcase>\n"
            } else {
                let type =
                    switch pair.outcome {
                    case .missing, .extra: pair.outcome.rawValue
                    default: pair.diff == nil ? "unreadable" : "threshold"
                    }
                xml +=
                    ">\n      <failure message=\"\(escape(pair.problems.joined(separator: "; ")))\" type=\"\(type)\">"
                xml += escape(pair.details) + "</failure>\n    </testcase>\n"
            }
        }
        if let nothingCompared {
            xml += "    <testcase name=\"(comparison)\" classname=\"\(escape(className))\" time=\"0.000\">\n"
            xml += "      <failure message=\"\(escape(nothingCompared))\" type=\"empty\"/>\n    </testcase>\n"
        }
        xml +=
            "    <system-out>\(escape(summary))</system-out>\n    <system-err></system-err>\n  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// Writes ``junitXML(suiteName:hostname:)`` to `url` as `OutputFile` does (a file atomically).
    public func writeJUnit(to url: URL, suiteName: String = "liquidlens diff") throws {
        try OutputFile.write(Data(junitXML(suiteName: suiteName).utf8), to: url)
    }

    /// One property per threshold set on every pair (the first pair's, without per-file rules).
    private var thresholdProperties: String {
        guard let thresholds = pairs.first?.thresholds else { return "" }
        return DiffMetric.allCases.compactMap { metric in
            thresholds[metric].map { "      <property name=\"\(metric.rawValue)\" value=\"\($0.formatted)\"/>\n" }
        }.joined()
    }
}

extension DiffReport.Pair {
    /// The thresholds it was held to and every metric, as text.
    public var details: String {
        var text = "thresholds: \(thresholds.summary)\n"
        if let diff { text += diff.report + "\n" }
        return text
    }
}

/// Text made safe inside an XML or HTML attribute or element: markup characters escaped,
/// characters XML 1.0 forbids dropped.
func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
        default:
            if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
}

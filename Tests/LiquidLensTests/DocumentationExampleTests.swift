import Foundation
import Testing

/// The documents whose examples the tests run: the README and every article of the catalog.
enum Documentation {
    static let samples = packageRoot.appendingPathComponent("Tests/Samples")

    /// The inputs of Tests/Samples that git keeps: its .gitignore ignores everything but the
    /// entries it lists as `!/name`. The examples run against these alone, so an input left out
    /// of the list fails here as it would on a clean clone, not only in CI.
    static let committedSamples: [String] = {
        let rules = (try? String(contentsOf: samples.appendingPathComponent(".gitignore"), encoding: .utf8)) ?? ""
        return rules.split(separator: "\n").filter { $0.hasPrefix("!/") }.map { String($0.dropFirst(2)) }
    }()

    /// README.md, then the articles by name, relative to the repository root.
    static let documents: [String] = {
        let catalog = "Sources/LiquidLens/LiquidLens.docc"
        let articles =
            (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(catalog).path))
            ?? []
        return ["README.md"] + articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
    }()

    /// The fenced blocks of `text` tagged `language`, in order, each with the heading it sits under.
    static func blocks(_ language: String, in text: String) -> [(heading: String, code: String)] {
        var blocks: [(String, String)] = []
        var heading = ""
        var open: (language: String, lines: [Substring])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if var block = open {
                if line == "```" {
                    if block.language == language { blocks.append((heading, block.lines.joined(separator: "\n"))) }
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
            } else if line.hasPrefix("```") {
                open = (String(line.dropFirst(3)), [])
            } else if line.hasPrefix("#") {
                heading = String(line)
            }
        }
        return blocks
    }

    /// The documents with `sh` examples to run: every `sh` block but the README's quick start
    /// (the fresh-root check runs that one).
    static let runnable: [String] = documents.filter { !shellExamples(in: $0).isEmpty }

    /// The `sh` blocks of `document` that run as examples.
    static func shellExamples(in document: String) -> [(heading: String, code: String)] {
        let text = (try? String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)) ?? ""
        return blocks("sh", in: text).filter { !(document == "README.md" && $0.heading == "## Quick start") }
    }

    /// The outputs a command line names with `-o`, `--output`, `--json`, `--heatmap`, `--junit`
    /// or `--report` (not `-`, which is standard output).
    static func namedOutputs(_ command: String) -> [String] {
        let words = command.split(whereSeparator: \.isWhitespace).map(String.init)
        let options: Set<String> = ["-o", "--output", "--json", "--heatmap", "--junit", "--report"]
        return zip(words, words.dropFirst()).compactMap { option, value in
            options.contains(option) && value != "-" ? value : nil
        }
    }
}

@Suite("Documentation examples", .serialized)
struct DocumentationExampleTests {
    @Test("The README and most articles have examples, and the README's quick start is the only sh block not run")
    func documentsAreFound() throws {
        #expect(Documentation.documents.count > 10, "\(Documentation.documents)")
        #expect(Documentation.runnable.contains("README.md") && Documentation.runnable.count >= 8)
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let quickStart = Documentation.blocks("sh", in: readme).filter { $0.heading == "## Quick start" }
        #expect(quickStart.count == 1 && quickStart[0].code.split(separator: "\n").count == 2)
        #expect(Documentation.committedSamples.count >= 10, "\(Documentation.committedSamples)")
    }

    /// Runs each `sh` block of the document through `/bin/sh -e`, in order, in one scratch copy
    /// of Tests/Samples' committed inputs with the tool on `PATH`, then all of them again in the same folder (a
    /// reader who tries the examples twice); each must exit 0 and leave the outputs it names.
    @Test(
        "Every sh example of the README and the articles runs as printed, twice in one folder, and makes what it names",
        arguments: Documentation.runnable)
    func shellExamples(_ document: String) throws {
        let blocks = Documentation.shellExamples(in: document)
        let scratch = try temporaryFolder("docs-\(document.split(separator: "/").last!)")
        for entry in Documentation.committedSamples where entry != ".gitignore" {
            try FileManager.default.copyItem(
                at: Documentation.samples.appendingPathComponent(entry), to: scratch.appendingPathComponent(entry))
        }
        let tools = cliBinary().deletingLastPathComponent().path
        let path = tools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for (round, block) in (blocks + blocks).enumerated() {
            let run = round < blocks.count ? "first run" : "second run"
            let result = try runProcess(
                URL(fileURLWithPath: "/bin/sh"), ["-e", "-c", block.code], environment: ["PATH": path], in: scratch)
            #expect(
                result.status == 0,
                "\(document) \(block.heading), \(run): exit \(result.status)\n\(block.code)\nstderr: \(result.stderr)")
            for line in block.code.split(separator: "\n") {
                for output in Documentation.namedOutputs(String(line)) {
                    #expect(
                        FileManager.default.fileExists(atPath: scratch.appendingPathComponent(output).path),
                        "\(document): `\(line)` names \(output), which it did not make")
                }
            }
        }
    }
}

import Foundation

/// What `liquidlens bench --json` writes. The schema (``BenchReport/schema``, printed by
/// `liquidlens bench --print-schema`) is versioned: fields are only added within a version.
struct BenchReport: Codable {
    static let schemaVersion = 1

    var schemaVersion = BenchReport.schemaVersion
    var tool: String
    var date: String
    var machine: Machine
    var verification: [Verification]
    /// Encoding of each workload's verified frame, per encoder (PNG compressions, QOI, JPEG, WebP).
    var encoding: [Encoding]?
    var results: [Result]
    /// Vulkan over CPU render-only frames/s per workload, with `--backend both`.
    var ratios: [Ratio]?
    var sweeps: [Sweep]

    struct Machine: Codable {
        var cores: Int
        var memoryGiB: Double
        var os: String
        var vulkanDevice: String?
    }

    /// GPU vs CPU on one frame of a workload, before anything is timed.
    struct Verification: Codable {
        var workload: String
        var frame: Int
        var maxError: [Int]
        var identicalFraction: Double
        var passed: Bool
    }

    /// One encoder's encode of one workload's frame: median time over its runs.
    struct Encoding: Codable {
        var workload: String
        /// The encoder: `fast`, `default`, `zlib-1` (PNG), `qoi`, `jpeg-90`, `webp-90`.
        var compression: String
        var runs: Int
        var medianMs: Double
        /// Raw RGBA megabytes (10^6 bytes) encoded per second.
        var megabytesPerSecond: Double
        var bytes: Int
    }

    struct Distribution: Codable {
        var median: Double
        var p90: Double
    }

    struct Stages: Codable {
        var compose: Double
        var copy: Double
        var frost: Double
        var lens: Double
        var readback: Double
    }

    struct EndToEnd: Codable {
        var pngCompression: String
        var framesPerSecond: Double
        var ratioToRenderOnly: Double
    }

    /// The end-to-end batch writing another format (`--formats`; JPEG and WebP at quality 90).
    struct FormatEndToEnd: Codable {
        var format: String
        var framesPerSecond: Double
        var ratioToRenderOnly: Double
    }

    /// One workload on one backend.
    struct Result: Codable {
        var workload: String
        var backend: String
        var width: Int
        var height: Int
        var frames: Int
        var framesInFlight: Int
        var setupMs: Double
        /// Median time to resolve one frame (scene to parameters) with a warm resolve cache.
        var resolveMs: Double
        var firstFrameMs: Double
        /// The time between finished frames of the render-only batch once every pipeline is
        /// compiled (the steady per-frame cost).
        var frameMs: Distribution
        /// A few frames rendered alone, one call each, after the batch: the median of each frame's
        /// faster of two passes, what the per-frame times are checked against (absent in reports
        /// from before it was measured).
        var frameAloneMs: Double?
        var framesPerSecond: Double
        /// Frames over the whole render-only batch's time, compile stalls included (absent in
        /// reports from before it was measured).
        var batchFramesPerSecond: Double?
        /// Frames of the render-only batch the CPU reference rendered because their Vulkan pipelines were not compiled.
        var standInFrames: Int?
        var megapixelsPerSecond: Double
        /// Each round's render-only frames/s, with `--rounds` above 1 (this result is the median round).
        var roundFramesPerSecond: [Double]?
        var gpuStagesMs: Stages?
        var endToEnd: EndToEnd
        /// With `--formats`: the end-to-end batch per other format.
        var endToEndFormats: [FormatEndToEnd]?
    }

    /// One workload's Vulkan/CPU frames/s ratio: each round's (both backends measured in one
    /// turn) and their median.
    struct Ratio: Codable {
        var workload: String
        var rounds: [Double]
        var median: Double
    }

    struct SweepPoint: Codable {
        var label: String
        var value: Double
        var frameMs: Double
        var firstFrameMs: Double
    }

    /// One scaling sweep on one backend: how the steady per-frame time (and the first, cold
    /// frame's) follows one parameter of the lens-heavy frame.
    struct Sweep: Codable {
        var name: String
        var parameter: String
        var backend: String
        var points: [SweepPoint]
    }

    static let schema = """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://liquidlens.dev/schemas/bench-1.json",
          "title": "liquidlens bench report",
          "type": "object",
          "additionalProperties": false,
          "required": ["schemaVersion", "tool", "date", "machine", "verification", "results", "sweeps"],
          "properties": {
            "schemaVersion": { "const": 1 },
            "tool": { "type": "string" },
            "date": { "type": "string", "description": "ISO 8601, UTC" },
            "machine": {
              "type": "object",
              "additionalProperties": false,
              "required": ["cores", "memoryGiB", "os"],
              "properties": {
                "cores": { "type": "integer", "minimum": 1 },
                "memoryGiB": { "type": "number", "minimum": 0 },
                "os": { "type": "string" },
                "vulkanDevice": { "type": "string" }
              }
            },
            "verification": {
              "type": "array",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["workload", "frame", "maxError", "identicalFraction", "passed"],
                "properties": {
                  "workload": { "enum": ["lens-heavy", "screen", "thumbnails"] },
                  "frame": { "type": "integer", "minimum": 0 },
                  "maxError": { "type": "array", "items": { "type": "integer", "minimum": 0, "maximum": 255 } },
                  "identicalFraction": { "type": "number", "minimum": 0, "maximum": 1 },
                  "passed": { "type": "boolean" }
                }
              }
            },
            "encoding": {
              "type": "array",
              "description": "Encode of each workload's verified frame, per encoder, median of the runs",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["workload", "compression", "runs", "medianMs", "megabytesPerSecond", "bytes"],
                "properties": {
                  "workload": { "enum": ["lens-heavy", "screen", "thumbnails"] },
                  "compression": { "enum": ["fast", "default", "zlib-1", "qoi", "jpeg-90", "webp-90"], "description": "The encoder: PNG fast or default; zlib-1: libpng at zlib level 1, every filter, for comparison; QOI; JPEG and WebP at quality 90" },
                  "runs": { "type": "integer", "minimum": 1 },
                  "medianMs": { "type": "number", "minimum": 0 },
                  "megabytesPerSecond": { "type": "number", "minimum": 0 },
                  "bytes": { "type": "integer", "minimum": 1 }
                }
              }
            },
            "results": {
              "type": "array",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["workload", "backend", "width", "height", "frames", "framesInFlight", "setupMs",
                             "resolveMs", "firstFrameMs", "frameMs", "framesPerSecond", "megapixelsPerSecond", "endToEnd"],
                "properties": {
                  "workload": { "enum": ["lens-heavy", "screen", "thumbnails"] },
                  "backend": { "enum": ["vulkan", "cpu"] },
                  "width": { "type": "integer", "minimum": 1 },
                  "height": { "type": "integer", "minimum": 1 },
                  "frames": { "type": "integer", "minimum": 1 },
                  "framesInFlight": { "type": "integer", "minimum": 1 },
                  "setupMs": { "type": "number", "minimum": 0, "description": "instance, device, pipelines" },
                  "resolveMs": { "type": "number", "minimum": 0, "description": "median, scene to parameters, warm cache" },
                  "firstFrameMs": { "type": "number", "minimum": 0 },
                  "frameMs": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["median", "p90"],
                    "properties": { "median": { "type": "number", "minimum": 0 }, "p90": { "type": "number", "minimum": 0 } }
                  },
                  "frameAloneMs": { "type": "number", "minimum": 0, "description": "a few frames rendered alone, one call each, after the batch: the median of each frame's faster of two passes" },
                  "framesPerSecond": { "type": "number", "minimum": 0, "description": "1000 / median frame" },
                  "batchFramesPerSecond": { "type": "number", "minimum": 0, "description": "frames / whole render-only batch, compiles included" },
                  "standInFrames": { "type": "integer", "minimum": 0, "description": "frames the CPU reference rendered because their Vulkan pipelines were not compiled (--while-compiling cpu)" },
                  "megapixelsPerSecond": { "type": "number", "minimum": 0 },
                  "roundFramesPerSecond": { "type": "array", "items": { "type": "number", "minimum": 0 }, "description": "each round's frames/s (--rounds); the result is the median round" },
                  "gpuStagesMs": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["compose", "copy", "frost", "lens", "readback"],
                    "properties": {
                      "compose": { "type": "number", "minimum": 0 },
                      "copy": { "type": "number", "minimum": 0 },
                      "frost": { "type": "number", "minimum": 0 },
                      "lens": { "type": "number", "minimum": 0 },
                      "readback": { "type": "number", "minimum": 0 }
                    }
                  },
                  "endToEnd": {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["pngCompression", "framesPerSecond", "ratioToRenderOnly"],
                    "properties": {
                      "pngCompression": { "enum": ["fast", "default", "best"] },
                      "framesPerSecond": { "type": "number", "minimum": 0 },
                      "ratioToRenderOnly": { "type": "number", "minimum": 0 }
                    }
                  },
                  "endToEndFormats": {
                    "type": "array",
                    "description": "With --formats: the end-to-end batch writing each other format (JPEG and WebP at quality 90)",
                    "items": {
                      "type": "object",
                      "additionalProperties": false,
                      "required": ["format", "framesPerSecond", "ratioToRenderOnly"],
                      "properties": {
                        "format": { "enum": ["qoi", "jpeg", "webp"] },
                        "framesPerSecond": { "type": "number", "minimum": 0 },
                        "ratioToRenderOnly": { "type": "number", "minimum": 0 }
                      }
                    }
                  }
                }
              }
            },
            "ratios": {
              "type": "array",
              "description": "Vulkan over CPU render-only frames/s per workload (--backend both)",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["workload", "rounds", "median"],
                "properties": {
                  "workload": { "enum": ["lens-heavy", "screen", "thumbnails"] },
                  "rounds": { "type": "array", "items": { "type": "number", "minimum": 0 } },
                  "median": { "type": "number", "minimum": 0 }
                }
              }
            },
            "sweeps": {
              "type": "array",
              "items": {
                "type": "object",
                "additionalProperties": false,
                "required": ["name", "parameter", "backend", "points"],
                "properties": {
                  "name": { "enum": ["resolution", "coverage", "shapes", "frost"] },
                  "parameter": { "type": "string" },
                  "backend": { "enum": ["vulkan", "cpu"] },
                  "points": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "additionalProperties": false,
                      "required": ["label", "value", "frameMs", "firstFrameMs"],
                      "properties": {
                        "label": { "type": "string" },
                        "value": { "type": "number" },
                        "frameMs": { "type": "number", "minimum": 0 },
                        "firstFrameMs": { "type": "number", "minimum": 0 }
                      }
                    }
                  }
                }
              }
            }
          }
        }
        """
}

/// The rounds of a `bench --rounds` run: per workload and backend the median round, and per
/// workload the Vulkan/CPU ratio of each round's pair.
struct BenchRounds {
    let medianRounds: [BenchReport.Result]
    let ratios: [BenchReport.Ratio]

    /// `turns`: each round's results of one workload, one per backend, in the order measured.
    init(_ turns: [[BenchReport.Result]], workloads: [String], backends: [String]) {
        var medianRounds: [BenchReport.Result] = []
        var ratios: [BenchReport.Ratio] = []
        for workload in workloads {
            let workloadTurns = turns.filter { $0.first?.workload == workload }
            for backend in backends {
                let rounds = workloadTurns.compactMap { $0.first { $0.backend == backend } }
                guard !rounds.isEmpty else { continue }
                var median = rounds.sorted { $0.framesPerSecond < $1.framesPerSecond }[(rounds.count - 1) / 2]
                if rounds.count > 1 { median.roundFramesPerSecond = rounds.map(\.framesPerSecond) }
                medianRounds.append(median)
            }
            let paired = workloadTurns.compactMap { turn -> Double? in
                guard let vulkan = turn.first(where: { $0.backend == "vulkan" }),
                    let cpu = turn.first(where: { $0.backend == "cpu" }), cpu.framesPerSecond > 0
                else { return nil }
                return vulkan.framesPerSecond / cpu.framesPerSecond
            }
            if !paired.isEmpty {
                ratios.append(
                    BenchReport.Ratio(workload: workload, rounds: paired, median: Self.median(paired)))
            }
        }
        self.medianRounds = medianRounds
        self.ratios = ratios
    }

    /// The middle value, or the mean of the two middle values.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}

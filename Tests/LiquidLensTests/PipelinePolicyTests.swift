import Foundation
import LiquidLens
import Testing

@testable import LensResolve
@testable import LensVulkan

/// The Vulkan renderer's pipeline policy, without a device: where a frame goes, which variants
/// it needs, and how a lens's tiles split between its variants.
@Suite("Pipeline policy")
struct PipelinePolicyTests {
    @Test(
        "A frame runs on the device when its pipelines are compiled; otherwise it waits without a stand-in or when all are compiling, and goes to the stand-in only when some have not started",
        arguments: [
            (true, true, true, PipelinePolicy.Route.device), (true, false, false, .device),
            (false, false, false, .waitForCompiles), (false, false, true, .waitForCompiles),
            (false, true, true, .waitForCompiles), (false, true, false, .standIn),
        ])
    func route(_ compiled: Bool, _ hasStandIn: Bool, _ missingAllStarted: Bool, _ expected: PipelinePolicy.Route) {
        #expect(
            PipelinePolicy.route(compiled: compiled, hasStandIn: hasStandIn, missingAllStarted: missingAllStarted)
                == expected)
    }

    @Test("A lens's tiles run with its own variant, or split at its label tiles once a label-free variant exists")
    func lensDispatches() {
        let whole = PipelinePolicy.lensDispatches(tileOffset: 10, tileCount: 8, labelTileCount: 3, hasLabelFree: false)
        #expect(whole.map { [$0.firstTile, $0.count] } == [[10, 8]] && whole.allSatisfy { !$0.labelFree })
        let split = PipelinePolicy.lensDispatches(tileOffset: 10, tileCount: 8, labelTileCount: 3, hasLabelFree: true)
        #expect(split.map { [$0.firstTile, $0.count] } == [[10, 3], [13, 5]])
        #expect(split.map(\.labelFree) == [false, true])
    }

    @Test(
        "A frame needs one lens variant per lens with tiles and its frost passes (the texels first on a stored level); a label-free variant only where a lens has tiles of both kinds",
        arguments: ["lens-heavy", "probe-grid", "segmented"])
    func framePipelines(_ name: String) throws {
        let scene =
            name == "lens-heavy"
            ? try BenchmarkWorkload.lensHeavy.scene(30, of: 60) : try #require(BuiltInScene(rawValue: name)).scene
        let parameters = try resolve(scene)
        let needed = FramePipelines(parameters)
        let withTiles = parameters.lenses.filter { $0.tileCount > 0 }
        #expect(needed.lens.compactMap { $0 }.count == withTiles.count)
        for (passes, lens) in zip(needed.frost, parameters.lenses) {
            let stored = lens.frostLevel >= FrostPyramid.firstStoredLevel
            #expect(passes.map(\.axis) == (stored ? [2, 0, 1] : [0, 1]))
        }
        #expect(needed.all.count == withTiles.count + needed.frost.map(\.count).reduce(0, +))
        for (lens, labelFree) in zip(parameters.lenses, needed.labelFree) {
            let mixed = lens.labelTileCount > 0 && lens.labelTileCount < lens.tileCount
            #expect((labelFree != nil) == mixed)
            if let labelFree {
                #expect(!labelFree.variant.reachesLabel && labelFree.tiles == Int(lens.tileCount - lens.labelTileCount))
            }
        }
        if name == "lens-heavy" { #expect(needed.labelFree.contains { $0 != nil }, "lens-heavy splits its lens") }
    }

    @Test(
        "What stand-in and device frames asked for is handed over once, then forgotten; asking for every compile gets every stand-in frame's"
    )
    func wantedIsTakenOnce() throws {
        let needed = FramePipelines(try resolve(BenchmarkWorkload.lensHeavy.scene(30, of: 60)))
        let other = FramePipelines(try resolve(BenchmarkWorkload.thumbnails.scene(3, of: 256)))
        var policy = PipelinePolicy()
        policy.noteStandIn(needing: needed.all, pixels: 1920 * 1080)
        #expect(policy.takeStandInWanted() == [.init(variants: needed.all, pixels: 1920 * 1080)])
        #expect(policy.takeStandInWanted().isEmpty)
        policy.noteStandIn(needing: other.all, pixels: 512 * 512)
        _ = policy.takeStandInWanted()
        policy.noteStandIn(needing: needed.all, pixels: 1920 * 1080)
        policy.noteLabelFree(needed.labelFree.compactMap { $0 })
        let wanted = policy.takeAllWanted()
        #expect(Set(wanted.required) == Set(needed.all + other.all), "the frames before the last one's too")
        #expect(wanted.required.count == Set(wanted.required).count && !wanted.optional.isEmpty)
        #expect(policy.standInWanted.isEmpty && policy.standInNeeded.isEmpty && policy.labelFreeWanted.isEmpty)
    }
}

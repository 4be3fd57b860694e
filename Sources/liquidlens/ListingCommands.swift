import Foundation
import LiquidLens

/// `liquidlens examples`: the built-in stills and animations with a line each.
struct ExamplesCommand: Command {
    static let name = "examples"
    static let abstract = "List the built-in scenes."

    func run() throws {
        try StandardStreams.writeProduct(
            "STILLS (render --example NAME):\n"
                + BuiltInScene.allCases.map { helpRow($0.rawValue, $0.summary) }.joined()
                + "\nANIMATIONS (animate --example NAME):\n"
                + BuiltInAnimation.allCases.map { helpRow($0.rawValue, $0.summary) }.joined())
    }
}

/// `liquidlens devices`: the Vulkan devices, whether each is usable, and its memory.
struct DevicesCommand: Command {
    static let name = "devices"
    static let abstract = "List Vulkan devices, why each is or is not usable, and their memory."

    func run() throws {
        let devices: [DeviceDescription]
        do {
            devices = try LensRenderer.listDevices()
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        if devices.isEmpty {
            try StandardStreams.writeProduct(
                "no Vulkan devices (for the CPU driver lavapipe: apt-get install mesa-vulkan-drivers)\n")
        }
        try StandardStreams.writeProduct(devices.map { "\($0)\n    \($0.memory)\n" }.joined())
    }
}

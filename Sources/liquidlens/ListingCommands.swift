import Foundation
import LiquidLens

/// `liquidlens examples`: the built-in stills and animations with a line each.
struct ExamplesCommand: Command {
    static let name = "examples"
    static let abstract = "List the built-in scenes."

    func run() {
        print("STILLS (render --example NAME):")
        for example in BuiltInScene.allCases {
            print(helpRow(example.rawValue, example.summary), terminator: "")
        }
        print("\nANIMATIONS (animate --example NAME):")
        for animation in BuiltInAnimation.allCases {
            print(helpRow(animation.rawValue, animation.summary), terminator: "")
        }
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
            print("no Vulkan devices (for the CPU driver lavapipe: apt-get install mesa-vulkan-drivers)")
        }
        for device in devices {
            print(device)
            print("    \(device.memory)")
        }
    }
}

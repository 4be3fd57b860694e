// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "LiquidLens",
    products: [
        .library(name: "LiquidLens", targets: ["LiquidLens"]),
        .executable(name: "liquidlens", targets: ["liquidlens"]),
    ],
    targets: [
        // C libraries: one system-library target each, imported `internal` only.
        .systemLibrary(
            name: "CVulkan", path: "Sources/CVulkan",
            providers: [.apt(["libvulkan-dev", "mesa-vulkan-drivers"])]),
        .systemLibrary(
            name: "CGlslang", path: "Sources/CGlslang",
            providers: [.apt(["glslang-dev", "spirv-tools"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev", "fonts-dejavu-core"])]),

        // Build-time shader compilation: GLSL in Shaders/ becomes SPIR-V embedded in LensShaders.
        .executableTarget(name: "ShaderCompiler", dependencies: ["CGlslang"]),
        .plugin(
            name: "ShaderEmbedPlugin", capability: .buildTool(),
            dependencies: ["ShaderCompiler"], path: "Sources/ShaderEmbedPlugin"),
        .target(name: "LensShaders", plugins: ["ShaderEmbedPlugin"]),

        // Model → backends → sinks. The model and the CPU reference are optimised in debug builds
        // too: the tests render hundreds of frames on the CPU and the debug build is what they run.
        .target(name: "LensCore", swiftSettings: optimisedInDebug),
        .target(name: "LensReference", dependencies: ["LensCore"], swiftSettings: optimisedInDebug),
        .target(name: "LensVulkan", dependencies: ["LensCore", "LensShaders", "CVulkan"]),
        .target(name: "LensIO", dependencies: ["LensCore", "CPNG"]),
        .target(name: "LensText", dependencies: ["LensCore", "CFreeType", "CHarfBuzz", "CFontconfig"]),
        .target(
            name: "LiquidLens",
            dependencies: ["LensCore", "LensReference", "LensVulkan", "LensIO", "LensText"]),
        .executableTarget(name: "liquidlens", dependencies: ["LiquidLens"]),

        .testTarget(
            name: "LiquidLensTests",
            dependencies: [
                "LiquidLens", "LensReference", "LensVulkan", "LensShaders", "LensIO", "LensText", "liquidlens",
                "CHarfBuzz", "CFreeType",
            ],
            // Read through #filePath, never bundled.
            exclude: ["Fixtures", "Goldens", "Scenes"]),
    ]
)

/// `-O` in debug builds (release builds are optimised anyway).
var optimisedInDebug: [SwiftSetting] { [.unsafeFlags(["-O"], .when(configuration: .debug))] }

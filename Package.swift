// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "LiquidLens",
    products: [
        .library(name: "LiquidLens", targets: ["LiquidLens"]),
        // Comparing images and reporting on them: an app that only renders does not link it.
        .library(name: "LensCompare", targets: ["LensCompare"]),
        .executable(name: "liquidlens", targets: ["liquidlens"]),
        // The C ABI, a shared library for other languages (the Python package in python/).
        .library(name: "LiquidLensC", type: .dynamic, targets: ["LiquidLensC"]),
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
            name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(
            name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(
            name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(
            name: "CHeif", path: "Sources/CHeif", pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]),
        .systemLibrary(
            name: "CRsvg", path: "Sources/CRsvg", pkgConfig: "librsvg-2.0",
            providers: [.apt(["librsvg2-dev"])]),
        .systemLibrary(
            name: "CLCMS", path: "Sources/CLCMS", pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(
            name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev", "fonts-dejavu-core"])]),

        // Build-time shader compilation: GLSL in Shaders/ becomes SPIR-V embedded in LensShaders.
        .executableTarget(name: "ShaderCompiler", dependencies: ["CGlslang"]),
        .plugin(
            name: "ShaderEmbedPlugin", capability: .buildTool(),
            dependencies: ["ShaderCompiler"], path: "Sources/ShaderEmbedPlugin"),
        .target(name: "LensShaders", plugins: ["ShaderEmbedPlugin"]),

        // Layers, each importing only those below it: model → controls, then resolve and catalog
        // side by side on controls; the backends consume what resolve makes; io and text are the
        // sinks and sources.
        .target(name: "LensModel"),
        .target(name: "LensControls", dependencies: ["LensModel"]),
        .target(name: "LensResolve", dependencies: ["LensModel", "LensControls"]),
        .target(name: "LensCatalog", dependencies: ["LensModel", "LensControls"]),
        .target(name: "LensReference", dependencies: ["LensModel", "LensResolve"]),
        .target(name: "LensVulkan", dependencies: ["LensModel", "LensResolve", "LensShaders", "CVulkan"]),
        .target(
            name: "LensIO",
            dependencies: ["LensModel", "CPNG", "CDeflate", "CJPEG", "CWebP", "CHeif", "CRsvg", "CLCMS"]),
        // Web pages are files (Web/), embedded in the binary at build time as the shaders are.
        .target(
            name: "LensCompare", dependencies: ["LensModel", "LensIO"],
            resources: [.embedInCode("Web/report.css"), .embedInCode("Web/report.js")]),
        .target(name: "LensText", dependencies: ["LensModel", "CFreeType", "CHarfBuzz", "CFontconfig"]),
        .target(
            name: "LiquidLens",
            dependencies: [
                "LensModel", "LensControls", "LensResolve", "LensCatalog", "LensReference", "LensVulkan", "LensIO",
                "LensText",
            ]),
        // The tuning page's server (`liquidlens serve`): a sink of the library, like the CLI.
        .target(
            name: "LensServe",
            dependencies: ["LiquidLens", "LensModel", "LensResolve", "LensIO", "LensCompare", "CMicroHTTPD"],
            resources: [
                .embedInCode("Web/tuning-page.html"), .embedInCode("Web/tuning-page.css"),
                .embedInCode("Web/tuning-page.js"),
            ]),
        // The C ABI (`liquidlens_*` functions): a sink of the library, like the CLI.
        .target(name: "LiquidLensC", dependencies: ["LiquidLens", "LensIO"]),
        // The command line uses the package's plumbing (output files, name suggestions, fault injection)
        // from the layers themselves; users get the LiquidLens surface.
        .executableTarget(
            name: "liquidlens",
            dependencies: ["LiquidLens", "LensModel", "LensIO", "LensCompare", "LensVulkan", "LensServe"]),

        .testTarget(
            name: "LiquidLensTests",
            dependencies: [
                "LiquidLens", "LensModel", "LensControls", "LensResolve", "LensCatalog", "LensReference", "LensVulkan",
                "LensShaders", "LensIO", "LensCompare", "LensText", "LensServe", "liquidlens",
                "CHarfBuzz", "CFreeType",
            ],
            // Read through #filePath, never bundled.
            exclude: ["Captures", "Fixtures", "Goldens", "Scenes", "Python"]),
    ]
)

// The libFuzzer targets (Tests/Fuzz/run.sh): declared only when asked for, because they have no
// `main` of their own (libFuzzer's comes with `--sanitize=fuzzer`).
if Context.environment["LIQUIDLENS_FUZZ"] == "1" {
    package.targets += [
        .executableTarget(
            name: "scene-fuzzer", dependencies: ["LensModel", "LensCatalog"], path: "Tests/Fuzz/SceneFuzzer"),
        .executableTarget(name: "png-fuzzer", dependencies: ["LensIO", "CDeflate"], path: "Tests/Fuzz/PNGFuzzer"),
        .executableTarget(name: "image-fuzzer", dependencies: ["LensIO"], path: "Tests/Fuzz/ImageFuzzer"),
    ]
}

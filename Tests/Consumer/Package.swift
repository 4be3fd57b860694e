// swift-tools-version: 6.0
// A package that uses LiquidLens the way Swift users add packages: by version, from a git URL.
// Tests/Consumer/build.sh points LIQUIDLENS_GIT_URL at a tagged clone of the checkout, and writes
// Sources/DocExamples from the documentation's Swift examples before it builds.
import Foundation
import PackageDescription

let liquidLensURL = Context.environment["LIQUIDLENS_GIT_URL"] ?? "https://github.com/liquidlens/LiquidLens.git"

let package = Package(
    name: "LensConsumer",
    dependencies: [.package(url: liquidLensURL, from: "0.1.0")],
    targets: [
        .executableTarget(
            name: "LensConsumer",
            dependencies: [
                .product(name: "LiquidLens", package: "LiquidLens"),
                .product(name: "LensCompare", package: "LiquidLens"),
            ])
    ]
)

if FileManager.default.fileExists(atPath: Context.packageDirectory + "/Sources/DocExamples/main.swift") {
    package.targets.append(
        .executableTarget(
            name: "DocExamples",
            dependencies: [
                .product(name: "LiquidLens", package: "LiquidLens"),
                .product(name: "LensCompare", package: "LiquidLens"),
            ]))
}

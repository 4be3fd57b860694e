import Foundation
import Testing

/// The C ABI's shared library the build put beside the test bundle (`swift test` builds every
/// product, `LiquidLensC` with them).
func sharedLibrary() -> URL {
    cliBinary().deletingLastPathComponent().appendingPathComponent("libLiquidLensC.so")
}

@Suite("The Python package")
struct PythonPackageTests {
    @Test("pytest: numpy frames, annotations, errors, batches, shards and threads as the CLI gives them")
    func pythonPackage() throws {
        let library = sharedLibrary()
        #expect(
            FileManager.default.fileExists(atPath: library.path), "no \(library.path): the build made no LiquidLensC")
        let tests = packageRoot.appendingPathComponent("Tests/LiquidLensTests/Python/test_python_package.py")
        let result = try runProcess(
            try testPython(), ["-m", "pytest", "-q", "-p", "no:cacheprovider", tests.path],
            environment: ["LIQUIDLENS_LIBRARY": library.path, "LIQUIDLENS_CLI": cliBinary().path])
        #expect(result.status == 0, "pytest exited \(result.status):\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(" passed"), "\(result.stdout)")
    }
}

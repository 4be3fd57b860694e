import Foundation
import LensIO
import LiquidLens

/// `liquidlens coco`: a folder of frames written with `batch --annotations` as one COCO dataset.
struct COCOCommand: Command {
    static let name = "coco"
    static let abstract = "Gather a folder's frame annotations (batch --annotations) into one COCO dataset."
    static let discussion: String? = """
        Reads every NAME.json beside an image NAME.png, .jpg, .webp or .qoi in the folder (what
        batch --annotations writes), in name order, and writes the boxes as COCO object detection:
        images, annotations with their bbox and area, and a fixed list of categories (glass, the
        control types, their parts, text) that is the same for every batch.
        """

    @Argument("folder", help: "A folder of frames and their annotations.") var folderPath: String
    var output = OutputOption(help: "The COCO JSON to write (default: - for stdout).")

    func run() throws {
        let folder = URL(fileURLWithPath: folderPath)
        let frames = try annotatedFrames(in: folder)
        guard !frames.isEmpty else {
            throw CommandFailure(
                message:
                    "\(folderPath) holds no annotated frames (NAME.json beside NAME.png): render them with batch --annotations"
            )
        }
        let data =
            try AnnotationsOutput.encoder(indented: false).encode(COCODataset(frames: frames)) + Data("\n".utf8)
        let url = Console.outputURL(output.path ?? "-")
        try OutputFile.write(data, to: url)
        Console.say("wrote \(Console.name(url)) (\(frames.count) images)")
    }

    /// The frames of `folder` that have both an image and annotations, by name.
    private func annotatedFrames(in folder: URL) throws -> [(fileName: String, annotations: FrameAnnotations)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() else {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder)
            let reason = !exists ? "no such folder" : isFolder.boolValue ? "permission denied" : "it is not a folder"
            throw CommandFailure(message: "cannot read the folder \(folderPath): \(reason)")
        }
        let present = Set(names)
        return try names.compactMap { name in
            guard name.hasSuffix(".json"), !name.hasPrefix(".") else { return nil }
            let stem = String(name.dropLast(5))
            guard let image = ["png", "jpg", "webp", "qoi"].map({ "\(stem).\($0)" }).first(where: present.contains)
            else { return nil }
            do {
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                return (image, try JSONDecoder().decode(FrameAnnotations.self, from: data))
            } catch {
                throw CommandFailure(message: "\(folderPath)/\(name) is not a frame's annotations: \(error)")
            }
        }
    }
}

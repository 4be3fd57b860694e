import Foundation

/// Many frames' boxes in the COCO object-detection format: one image per frame, one annotation
/// per glass element, control, control part and title ink box, in categories that are the same
/// for every batch (so the exports of a batch's shards merge by concatenation and renumbering).
public struct COCODataset: Codable, Sendable, Equatable {
    /// A frame.
    public struct Image: Codable, Sendable, Equatable {
        public var id: Int
        /// The frame's image file, relative to the batch's folder.
        public var fileName: String
        /// The frame's width in pixels.
        public var width: Int
        /// The frame's height in pixels.
        public var height: Int

        enum CodingKeys: String, CodingKey {
            case id, width, height
            case fileName = "file_name"
        }
    }

    /// One box.
    public struct Annotation: Codable, Sendable, Equatable {
        public var id: Int
        /// The ``Image/id`` of the frame the box is in.
        public var imageID: Int
        /// The ``Category/id`` of what the box holds.
        public var categoryID: Int
        /// `[x, y, width, height]` in pixels.
        public var bbox: PixelBox
        /// The box's area in square pixels.
        public var area: Double
        /// Always 0: every box holds one object (COCO's `iscrowd`).
        public var isCrowd: Int
        /// The title of a segment, tab, item or text box; the glass's source.
        public var label: String?

        enum CodingKeys: String, CodingKey {
            case id, bbox, area, label
            case imageID = "image_id"
            case categoryID = "category_id"
            case isCrowd = "iscrowd"
        }
    }

    /// A kind of box.
    public struct Category: Codable, Sendable, Equatable {
        public var id: Int
        /// The category's name: `glass`, a control's type, a part's kind or `text`.
        public var name: String
        /// `glass`, `control`, `part` or `text`.
        public var supercategory: String
    }

    /// The frames, one image each.
    public var images: [Image]
    /// Every box of every frame.
    public var annotations: [Annotation]
    /// The categories the boxes name (``categories``, the same for every batch).
    public var categories: [Category]

    /// Every category, by supercategory: glass; the controls' types; their parts; title ink.
    public static let categories: [Category] = {
        let controls = ["segmented", "tabBar", "lensMenu"] + GlassControl.Kind.allCases.map(\.rawValue)
        let parts = ["segment", "tab", "item", "lens", "platter", "accessory", "knob", "glass part"]
        let named =
            [("glass", "glass")] + controls.map { ($0, "control") } + parts.map { ($0, "part") } + [("text", "text")]
        return named.enumerated().map { Category(id: $0 + 1, name: $1.0, supercategory: $1.1) }
    }()

    /// The dataset of `frames`, each its image's file name and its annotations, in order (image
    /// ids from 1).
    public init(frames: [(fileName: String, annotations: FrameAnnotations)]) {
        images = []
        annotations = []
        categories = Self.categories
        for (index, frame) in frames.enumerated() {
            let image = Image(
                id: index + 1, fileName: frame.fileName, width: frame.annotations.width,
                height: frame.annotations.height)
            images.append(image)
            for (category, box, label) in Self.boxes(frame.annotations) {
                annotations.append(
                    Annotation(
                        id: annotations.count + 1, imageID: image.id, categoryID: category, bbox: box,
                        area: (box.width * box.height * 100).rounded() / 100, isCrowd: 0, label: label))
            }
        }
    }

    /// A frame's boxes: its glass, then each control, its parts and their titles' ink.
    static func boxes(_ frame: FrameAnnotations) -> [(category: Int, box: PixelBox, label: String?)] {
        func category(_ name: String) -> Int { categories.first { $0.name == name }?.id ?? 0 }
        var boxes = frame.glass.map { (category("glass"), $0.box, Optional($0.source)) }
        for control in frame.controls {
            boxes.append((category(control.type), control.box, nil))
            for part in control.parts {
                boxes.append((category(part.kind == "glass" ? "glass part" : part.kind), part.box, part.title))
                if let text = part.textBox { boxes.append((category("text"), text, part.title)) }
            }
        }
        return boxes
    }
}

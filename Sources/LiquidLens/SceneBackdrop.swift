import Foundation
import LensIO
import LensModel

extension Scene {
    /// This scene over the image at `url`: the canvas becomes the image's size at `scale` pixels
    /// per point (the scene's own when nil; an SVG is drawn at it), the image replaces the
    /// background layers, and the glass, controls, label and foreground lie over it as they were.
    /// The image is read through `images`, so it is decoded once for many frames.
    public func overBackdrop(at url: URL, scale: Double? = nil, images: ImageCache = LensRenderer.sharedImages)
        throws -> Scene
    {
        let scale = scale ?? canvas.scale
        let image = try images.image(at: url, scale: scale)
        var scene = self
        scene.canvas = Canvas(width: Double(image.width) / scale, height: Double(image.height) / scale, scale: scale)
        scene.background = [BackgroundLayer(.image(path: url.standardizedFileURL.path))]
        return scene
    }
}

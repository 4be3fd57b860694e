/// A frame's masks, for datasets: where its glass lies and where its labels take the accent
/// colour, one byte per pixel (0 none … 255 whole). Both are what the frame shows: layers over
/// everything (`foreground`) hide the glass they cover.
public struct FrameMasks: Sendable, Equatable {
    /// How much of each pixel is glass: each glass group's edge coverage times its opacity, later
    /// groups over earlier ones.
    public let glass: AlphaImage
    /// How much of each pixel is a label glyph in the accent colour: the glyph's coverage where the
    /// glass draws it, times the glass's feathered lens mask and accent strength (the tint
    /// masking's share), times the glass's coverage; through every tap of the refraction and its
    /// dispersion, the largest share over the three channels. It is the label's share of what the
    /// glass shows before the glass's own colour (darkening, tint, rim light, inner shadow) is laid
    /// on. Zero outside the glass, where labels keep their resting colour.
    public let tint: AlphaImage

    /// Masks from their images, which must be the same size (a precondition).
    public init(glass: AlphaImage, tint: AlphaImage) {
        precondition(glass.width == tint.width && glass.height == tint.height, "the masks differ in size")
        self.glass = glass
        self.tint = tint
    }
}

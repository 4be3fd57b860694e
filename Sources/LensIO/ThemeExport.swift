import Foundation
import LensModel

/// Writes a theme back out: as JSON a scene file accepts under `"theme"`, and as Swift source
/// that builds the same theme with the LiquidLens API.
public enum ThemeExport {
    /// Pretty, key-sorted JSON.
    public static func json(_ theme: Theme) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(theme)
    }

    /// A Swift file: `import LiquidLens` and `let <name> = Theme(…)` with every value spelled out.
    public static func swift(_ theme: Theme, name: String = "theme") -> String {
        var arguments = [
            "material: \(material(theme.material))",
            "shape: .\(theme.shape.rawValue)",
            "cornerRadius: \(number(theme.cornerRadius))",
            "shadow: DropShadow(offset: Point(x: \(number(theme.shadow.offset.x)), y: \(number(theme.shadow.offset.y))), "
                + "radius: \(number(theme.shadow.radius)), opacity: \(number(theme.shadow.opacity)))",
            "edgeHighlight: EdgeHighlight(width: \(number(theme.edgeHighlight.width)), "
                + "alphas: [\(theme.edgeHighlight.alphas.map(number).joined(separator: ", "))])",
        ]
        if let gradient = theme.gradientTint {
            arguments.append(
                "gradientTint: GradientTint(colors: [\(gradient.colors.map(color).joined(separator: ", "))], "
                    + "angle: \(number(gradient.angle)), intensity: \(number(gradient.intensity)))")
        }
        arguments.append("renderingPath: .\(theme.renderingPath.rawValue)")
        return """
            import LiquidLens

            let \(name) = Theme(
                \(arguments.joined(separator: ",\n    "))
            )

            """
    }

    private static func material(_ material: Material) -> String {
        switch material {
        case .clear, .frosted, .dark:
            return ".\(material.name)"
        case .apple(let glass):
            return ".apple(.\(glass.rawValue))"
        case .tinted(let tint):
            return ".tinted(\(color(tint)))"
        case .custom(let blur, let tint, let saturation, let opacity):
            return ".custom(blur: \(number(blur)), tint: \(color(tint)), saturation: \(number(saturation)), "
                + "opacity: \(number(opacity)))"
        }
    }

    private static func color(_ color: RGBAColor) -> String {
        "RGBAColor(red: \(number(color.red)), green: \(number(color.green)), blue: \(number(color.blue)), "
            + "alpha: \(number(color.alpha)))"
    }

    /// The shortest decimal that reads back as the same `Double`.
    private static func number(_ value: Double) -> String { "\(value)" }
}

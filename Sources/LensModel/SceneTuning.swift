import Foundation

/// One value a tuning tool may set, by its key path inside the object that owns it (a glass
/// element, a control), with the range or the choices the scene decoder accepts: the ranges are
/// the decoder's own ``Limits`` and the choices its own cases, so a slider cannot offer a value
/// the decoder refuses.
package struct TunableValue: Sendable {
    /// What kind of input sets the value.
    package enum Kind: Sendable {
        /// A number in `range`, moved in steps of `step`.
        case number(ClosedRange<Double>, step: Double)
        /// A colour, `#RRGGBBAA` in JSON.
        case color
        /// One of these JSON strings.
        case choice([String])
        /// On or off.
        case toggle
    }

    /// The key path inside the owner, e.g. `optics.frost`.
    package let path: String
    /// A short label for the control.
    package let label: String
    /// The group the control is shown in ("Optics", "Shadow", "Lift").
    package let group: String
    package let kind: Kind
    /// For control settings: the control types (`type` in JSON) that have the key.
    package let controlTypes: [String]
    /// What the value is where the JSON has no key for it, when its object is absent too (a glass
    /// without `lift` is fully lifted); nil: the range's lower end.
    package let whenAbsent: Double?

    init(
        _ path: String, _ label: String, _ group: String, _ kind: Kind, controlTypes: [String] = [],
        whenAbsent: Double? = nil
    ) {
        self.path = path
        self.label = label
        self.group = group
        self.kind = kind
        self.controlTypes = controlTypes
        self.whenAbsent = whenAbsent
    }

    /// The value as JSON for a tuning page: `{"path", "label", "group", "type", …}`.
    package var json: [String: Any] {
        var object: [String: Any] = ["path": path, "label": label, "group": group]
        if !controlTypes.isEmpty { object["controlTypes"] = controlTypes }
        if let whenAbsent { object["whenAbsent"] = whenAbsent }
        switch kind {
        case .number(let range, let step):
            object["type"] = "number"
            object["min"] = range.lowerBound
            object["max"] = range.upperBound
            object["step"] = step
        case .color: object["type"] = "color"
        case .choice(let choices):
            object["type"] = "choice"
            object["choices"] = choices
        case .toggle: object["type"] = "toggle"
        }
        return object
    }
}

/// What `liquidlens serve` offers as controls: the selected glass element's optics, material and
/// lift, and every control's lift, hold, appearance and Dynamic Type size.
package enum SceneTuning {
    /// Values of one glass element (`glass[i]`).
    package static let glass: [TunableValue] = [
        TunableValue("optics.preset", "preset", "Optics", .choice(OpticsPreset.allCases.map(\.rawValue))),
        TunableValue("optics.model", "refraction", "Optics", .choice(RefractionModel.allCases.map(\.rawValue))),
        TunableValue("optics.bevelWidth", "bevel width H (pt)", "Optics", .number(Limits.bevel, step: 0.5)),
        TunableValue("optics.bevelAmount", "bevel amount A (pt)", "Optics", .number(Limits.bevel, step: 0.5)),
        TunableValue("optics.magnification", "magnification", "Optics", .number(Limits.magnification, step: 0.01)),
        TunableValue("optics.dispersion", "dispersion", "Optics", .number(Limits.dispersion, step: 0.005)),
        TunableValue("optics.frost", "frost σ (pt)", "Optics", .number(Limits.frost, step: 0.25)),
        TunableValue("optics.saturation", "saturation", "Optics", .number(Limits.saturation, step: 0.01)),
        TunableValue("optics.brightness", "brightness", "Optics", .number(Limits.brightness, step: 0.01)),
        TunableValue("optics.contrast", "contrast", "Optics", .number(Limits.saturation, step: 0.01)),
        TunableValue("optics.tint", "tint", "Optics", .color),
        TunableValue("optics.appearance", "appearance", "Optics", .choice(Appearance.allCases.map(\.rawValue))),
        TunableValue("optics.softness", "tint feather (pt)", "Optics", .number(Limits.softness, step: 0.5)),
        TunableValue("optics.ovalization", "ovalization", "Optics", .number(Limits.unit, step: 0.01)),
        TunableValue("optics.fresnel", "fresnel", "Optics", .number(Limits.rimAmount, step: 0.01)),
        TunableValue("optics.rimLight.width", "rim width (pt)", "Rim and shadow", .number(Limits.rimWidth, step: 0.25)),
        TunableValue(
            "optics.shadow.radius", "shadow radius (pt)", "Rim and shadow", .number(Limits.shadowRadius, step: 0.5)),
        TunableValue("optics.shadow.opacity", "shadow opacity", "Rim and shadow", .number(Limits.unit, step: 0.01)),
        TunableValue("blend", "group blend (pt)", "Shape", .number(Limits.blend, step: 0.5)),
        TunableValue("material", "material", "Material", .choice(materialNames)),
        TunableValue("lift.progress", "lift", "Lift", .number(Limits.unit, step: 0.01), whenAbsent: 1),
        TunableValue("lift.restingFrost", "resting frost σ (pt)", "Lift", .number(Limits.frost, step: 0.25)),
        TunableValue("lift.restingShadow", "resting shadow", "Lift", .number(Limits.unit, step: 0.01)),
    ]

    /// Values every control of the scene may take (`controls[i]`), where its type has the key.
    package static let controls: [TunableValue] = [
        TunableValue(
            "lift", "lift", "Controls", .number(Limits.unit, step: 0.01),
            controlTypes: ["segmented", "tabBar", "lensMenu"]),
        TunableValue(
            "held", "held", "Controls", .number(Limits.unit, step: 0.01),
            controlTypes: ["segmented"] + glassControlTypes),
        TunableValue(
            "appearance", "appearance", "Scene", .choice(ControlAppearance.allCases.map(\.rawValue)),
            controlTypes: ["segmented", "tabBar", "lensMenu"] + glassControlTypes),
        TunableValue(
            "contentSize", "Dynamic Type", "Scene", .choice(ContentSizeCategory.allCases.map(\.rawValue)),
            controlTypes: ["segmented"] + glassControlTypes),
    ]

    private static var glassControlTypes: [String] { GlassControl.Kind.allCases.map(\.rawValue) }

    /// The materials JSON names with a string.
    package static var materialNames: [String] {
        ([Material.clear, .frosted, .dark] + AppleGlass.allCases.map(Material.apple)).map(\.name)
    }
}

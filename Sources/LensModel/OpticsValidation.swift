import Foundation

extension Optics {
    func validate(_ path: String) throws {
        try check(bevelWidth, Limits.bevel, "\(path).bevelWidth")
        try check(bevelAmount, Limits.bevel, "\(path).bevelAmount")
        try check(ior, Limits.ior, "\(path).ior")
        try check(thickness, Limits.bevel, "\(path).thickness")
        try check(magnification, Limits.magnification, "\(path).magnification")
        try check(dispersion, Limits.dispersion, "\(path).dispersion")
        try check(frost, Limits.frost, "\(path).frost")
        try check(saturation, Limits.saturation, "\(path).saturation")
        try check(brightness, Limits.brightness, "\(path).brightness")
        try check(contrast, Limits.saturation, "\(path).contrast")
        try check(tint, "\(path).tint")
        try check(softness, Limits.softness, "\(path).softness")
        try check(ovalization, Limits.unit, "\(path).ovalization")
        try check(rimLight.key.angle, Limits.angle, "\(path).rimLight.key.angle")
        try check(rimLight.key.amount, Limits.rimAmount, "\(path).rimLight.key.amount")
        try check(rimLight.fill.angle, Limits.angle, "\(path).rimLight.fill.angle")
        try check(rimLight.fill.amount, Limits.rimAmount, "\(path).rimLight.fill.amount")
        try check(rimLight.width, Limits.rimWidth, "\(path).rimLight.width")
        try check(Double(rimLight.falloff), Limits.rimFalloff, "\(path).rimLight.falloff")
        try check(fresnel, Limits.rimAmount, "\(path).fresnel")
        try check(contour.width, Limits.rimWidth, "\(path).contour.width")
        try check(contour.opacity, Limits.unit, "\(path).contour.opacity")
        for (name, shadow) in [("shadow", shadow), ("innerShadow", innerShadow)] {
            try check(shadow.offset, "\(path).\(name).offset")
            try check(shadow.radius, Limits.shadowRadius, "\(path).\(name).radius")
            try check(shadow.opacity, Limits.unit, "\(path).\(name).opacity")
        }
        try check(rimLight.curvature, Limits.rimCurvature, "\(path).rimLight.curvature")
        if let recolor = rimLight.recolor { try recolor.validate("\(path).rimLight.recolor") }
        try face.validate("\(path).face")
        try Self.checkStageCounts(stages, "\(path).stages")
        for (index, stage) in stages.enumerated() {
            try check(stage.amount, Limits.stageAmount, "\(path).stages[\(index)].amount")
            try check(stage.height, Limits.stageHeight, "\(path).stages[\(index)].height")
        }
        try check(aberration.amount, Limits.aberration, "\(path).aberration.amount")
        try check(aberration.angle, Limits.angle, "\(path).aberration.angle")
        try check(aberration.band, Limits.rimWidth, "\(path).aberration.band")
    }

    /// Throws unless each target has at most ``DisplacementStage/maximumPerTarget`` stages.
    static func checkStageCounts(_ stages: [DisplacementStage], _ path: String) throws {
        for target in StageTarget.allCases
        where stages.filter({ $0.target == target }).count > DisplacementStage.maximumPerTarget {
            throw SceneError(
                keyPath: path,
                message: "at most \(DisplacementStage.maximumPerTarget) stages may move the \(target.rawValue)")
        }
    }
}

extension ColorLevels {
    func validate(_ path: String) throws {
        try check(white, Limits.levels, "\(path).white")
        try check(black, Limits.levels, "\(path).black")
        try check(saturation, Limits.saturation, "\(path).saturation")
    }
}

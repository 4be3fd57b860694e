import Foundation
import LensModel
import LensResolve

/// A specialised pipeline the renderer compiles on first use: a lens pass or a frost pass.
enum PipelineVariant: Hashable {
    case lens(LensVariant)
    case frost(FrostVariant)

    var isLens: Bool {
        if case .lens = self { true } else { false }
    }

    var constants: [UInt32: UInt32] {
        switch self {
        case .lens(let variant): variant.constants
        case .frost(let variant): variant.constants
        }
    }
}

/// The optional stages a lens uses (GLSL: the `F_*` bits of the `FEATURES` specialisation
/// constant): a bit is set exactly when the stage's runtime condition holds, so the specialised
/// pipeline leaves out only stages that would change nothing.
struct LensFeatures: OptionSet, Hashable {
    let rawValue: UInt32

    static let linearBlending = Self(rawValue: 1 << 0)
    static let stageModel = Self(rawValue: 1 << 1)
    static let aberration = Self(rawValue: 1 << 2)
    static let dispersion = Self(rawValue: 1 << 3)
    static let warps = Self(rawValue: 1 << 4)
    static let profile = Self(rawValue: 1 << 5)
    static let labelOnFace = Self(rawValue: 1 << 6)
    static let liftedLabel = Self(rawValue: 1 << 7)
    static let faceLevels = Self(rawValue: 1 << 8)
    static let tint = Self(rawValue: 1 << 9)
    static let gradient = Self(rawValue: 1 << 10)
    static let restingFill = Self(rawValue: 1 << 11)
    static let rim = Self(rawValue: 1 << 12)
    static let rimRecolor = Self(rawValue: 1 << 13)
    static let edgeHighlight = Self(rawValue: 1 << 14)
    static let shimmer = Self(rawValue: 1 << 15)
    static let fresnel = Self(rawValue: 1 << 16)
    static let contour = Self(rawValue: 1 << 17)
    static let innerShadow = Self(rawValue: 1 << 18)
    static let dropShadow = Self(rawValue: 1 << 19)
    static let touchGlow = Self(rawValue: 1 << 20)
    static let shapeTints = Self(rawValue: 1 << 21)
    static let coverageRamp = Self(rawValue: 1 << 22)

    /// Every stage.
    static let all = Self(rawValue: (1 << 23) - 1)

    /// Each bit with its GLSL name, for the test that the two declarations agree.
    static let glslNames: [(String, Self)] = [
        ("F_LINEAR_BLENDING", .linearBlending), ("F_STAGE_MODEL", .stageModel), ("F_ABERRATION", .aberration),
        ("F_DISPERSION", .dispersion), ("F_WARPS", .warps), ("F_PROFILE", .profile),
        ("F_LABEL_ON_FACE", .labelOnFace), ("F_LIFTED_LABEL", .liftedLabel), ("F_FACE_LEVELS", .faceLevels),
        ("F_TINT", .tint), ("F_GRADIENT", .gradient), ("F_RESTING_FILL", .restingFill), ("F_RIM", .rim),
        ("F_RIM_RECOLOR", .rimRecolor), ("F_EDGE_HIGHLIGHT", .edgeHighlight), ("F_SHIMMER", .shimmer),
        ("F_FRESNEL", .fresnel), ("F_CONTOUR", .contour), ("F_INNER_SHADOW", .innerShadow),
        ("F_DROP_SHADOW", .dropShadow), ("F_TOUCH_GLOW", .touchGlow), ("F_SHAPE_TINTS", .shapeTints),
        ("F_COVERAGE_RAMP", .coverageRamp),
    ]

    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The stages `lens` uses in a frame that blends linearly or not: each condition as the
    /// shader tests it.
    init(lens: LensParams, linearBlending: Bool) {
        let conditions: [(Self, Bool)] = [
            (.linearBlending, linearBlending), (.stageModel, lens.stageModel != 0),
            (.aberration, lens.aberration.x > 0), (.dispersion, lens.dispersion > 0),
            (.warps, lens.warpsContentBelow != 0), (.profile, lens.profileOffset != 0),
            (.labelOnFace, lens.labelOnFace != 0), (.liftedLabel, lens.liftedContentAlpha > 0),
            (.faceLevels, lens.faceLevels.w != 0), (.tint, lens.tint.w > 0 || lens.gradientCount != 0),
            (.gradient, lens.gradientCount != 0), (.restingFill, lens.restingFill.w > 0), (.rim, lens.rimWidth > 0),
            (.rimRecolor, lens.rimRecolor.w != 0), (.edgeHighlight, lens.edgeHighlight.x > 0),
            (.shimmer, lens.shimmer.z > 0), (.fresnel, lens.fresnel > 0),
            (.contour, lens.contourOpacity > 0 && lens.contourWidth > 0), (.innerShadow, lens.innerShadow.w > 0),
            (.dropShadow, lens.shadow.w > 0), (.touchGlow, lens.touchGlow.w > 0),
            (.shapeTints, lens.shapeTints != 0),
            (.coverageRamp, lens.coverageRamp.z != 0 || lens.coverageRamp.w != 0),
        ]
        self = conditions.reduce(into: []) { features, condition in
            if condition.1 { features.insert(condition.0) }
        }
    }
}

/// A lens pipeline variant: the `SHAPE_KINDS`, `SINGLE_SHAPE`, `REACHES_LABEL`, `SPECTRAL`,
/// `WRITES_COMPOSITE` and `FEATURES` specialisation constants. Each is exact for its lens: on
/// llvmpipe a pipeline specialised further both runs and compiles faster (it has less code), so
/// lenses do not share looser variants.
struct LensVariant: Hashable {
    /// Bit `1 << kind` for each shape kind in the group.
    var shapeKinds: UInt32
    var singleShape: Bool
    var reachesLabel: Bool
    /// Whether the group disperses by spectral taps (GLSL: `SPECTRAL`).
    var spectral: Bool
    var writesComposite: Bool
    var features: LensFeatures

    /// The variant of `lens`, a group of `shapes`, for its tiles that reach a label or the others.
    init(lens: LensParams, shapes: ArraySlice<ShapeParams>, reachesLabel: Bool, linearBlending: Bool) {
        shapeKinds = shapes.reduce(0) { $0 | 1 << $1.kind }
        singleShape = lens.shapeCount == 1
        self.reachesLabel = reachesLabel
        spectral = lens.dispersion > 0 && lens.spectralTaps > 0
        writesComposite = !PixelRegion(bounds: lens.compositeRegion).isEmpty
        features = LensFeatures(lens: lens, linearBlending: linearBlending)
    }

    /// The specialisation constants by `constant_id` (`SPECIALIZED` is always on).
    var constants: [UInt32: UInt32] {
        [
            0: shapeKinds, 1: singleShape ? 1 : 0, 2: reachesLabel ? 1 : 0, 3: spectral ? 1 : 0,
            4: writesComposite ? 1 : 0, 5: 1, 6: features.rawValue,
        ]
    }
}

/// A frost pipeline variant: the `FROST_AXIS`, `FROST_LEVEL` and `FROST_READS_COMPOSITE`
/// specialisation constants, the lens's own values.
struct FrostVariant: Hashable {
    /// 2: the stored level's texels into `scratch`; 0: the horizontal pass into `scratch`; 1: the
    /// vertical pass into `frosted`.
    var axis: UInt32
    var level: UInt32
    var readsComposite: Bool

    /// The specialisation constants by `constant_id`.
    var constants: [UInt32: UInt32] { [7: axis, 8: level, 9: readsComposite ? 1 : 0] }

    /// The passes of `lens`'s frost in order: on a stored level its texels, then horizontal, then
    /// vertical.
    static func passes(of lens: LensParams) -> [FrostVariant] {
        let axes: [UInt32] = lens.frostLevel >= FrostPyramid.firstStoredLevel ? [2, 0, 1] : [0, 1]
        return axes.map { FrostVariant(axis: $0, level: lens.frostLevel, readsComposite: lens.readsComposite != 0) }
    }
}

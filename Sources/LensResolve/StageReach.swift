import LensModel

extension Tiling {
    /// The farthest a stage-model sample lands from its pixel, in pixels: the fringe's spread plus
    /// the longer chain's summed stage amounts; the label row's chain also carries its
    /// magnification's pull towards the centre from the far corner. 0 outside the stage model.
    static func stageReach(_ lens: LensParams, _ geometry: [ShapeGeometry]) -> Double {
        guard lens.stageModel != 0 else { return 0 }
        let longest =
            geometry.map { ($0.halfWidth * $0.halfWidth + $0.halfHeight * $0.halfHeight).squareRoot() }.max() ?? 0
        let fringe = Double(lens.aberration.x)
        let backdrop = fringe + Double(abs(lens.backdropStages.x) + abs(lens.backdropStages.z))
        let label = fringe + Double(abs(lens.labelStages.x) + abs(lens.labelStages.z))
        let pull = (longest + label) * abs(1 - Double(lens.labelInverseMagnification))
        return max(backdrop, label + pull)
    }
}

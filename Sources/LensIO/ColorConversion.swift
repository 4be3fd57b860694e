internal import CLCMS
import Foundation
import LensModel

/// Converts decoded pixels to sRGB with Little CMS: an embedded ICC profile (RGB, grey or CMYK),
/// or colour primaries and a transfer function named by code (PNG `cICP`, HEIF `nclx`). Perceptual
/// intent, as ImageMagick and `transicc` default to; alpha is kept as it is.
package enum ColorConversion {
    /// Colour primaries and transfer function as ITU-T H.273 numbers them.
    package struct CodePoints: Equatable, Sendable {
        package var primaries: Int
        package var transfer: Int

        package init(primaries: Int, transfer: Int) {
            self.primaries = primaries
            self.transfer = transfer
        }

        /// sRGB itself: nothing to convert.
        var isSRGB: Bool { primaries == 1 && (transfer == 13 || transfer == 2) }
    }

    /// Converts RGBA `pixels` (or CMYK, 4 bytes a pixel, when the profile is CMYK) from `profile`
    /// to sRGB RGBA in place. Grey profiles read the red channel.
    package static func convert(_ pixels: inout [UInt8], fromICC profile: Data, cmykInverted: Bool = false) throws {
        let input = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let input else { throw ImageFileError(description: "its ICC profile is not one Little CMS can read") }
        defer { cmsCloseProfile(input) }
        let space = cmsGetColorSpace(input)
        switch space {
        case cmsSigRgbData: try transform(&pixels, from: input, format: liquidlens_lcms_rgba8())
        case cmsSigCmykData:
            try transform(
                &pixels, from: input,
                format: cmykInverted ? liquidlens_lcms_cmyk8_inverted() : liquidlens_lcms_cmyk8(),
                opaque: true)
        case cmsSigGrayData:
            var grey = stride(from: 0, to: pixels.count, by: 4).map { pixels[$0] }
            var rgb = [UInt8](repeating: 0, count: grey.count * 3)
            try transform(from: input, inputFormat: liquidlens_lcms_gray8(), &grey, to: &rgb)
            for pixel in 0..<grey.count {
                pixels[pixel * 4] = rgb[pixel * 3]
                pixels[pixel * 4 + 1] = rgb[pixel * 3 + 1]
                pixels[pixel * 4 + 2] = rgb[pixel * 3 + 2]
            }
        default:
            throw ImageFileError(description: "its ICC profile is for a colour space other than RGB, grey or CMYK")
        }
    }

    /// Converts RGBA `pixels` from the colour space `codes` name to sRGB in place.
    package static func convert(_ pixels: inout [UInt8], from codes: CodePoints) throws {
        guard !codes.isSRGB else { return }
        let profile = try makeProfile(codes)
        defer { cmsCloseProfile(profile) }
        try transform(&pixels, from: profile, format: liquidlens_lcms_rgba8())
    }

    /// An ICC profile for `codes` (Display P3 is primaries 12, transfer 13), as bytes.
    package static func iccProfile(_ codes: CodePoints) throws -> Data {
        let profile = try makeProfile(codes)
        defer { cmsCloseProfile(profile) }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0 else {
            throw ImageFileError(description: "Little CMS could not write the profile")
        }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else {
            throw ImageFileError(description: "Little CMS could not write the profile")
        }
        return Data(bytes)
    }

    /// CMYK without a profile: the naive inverse, as browsers draw such files.
    package static func naiveCMYK(_ pixels: inout [UInt8], inverted: Bool) {
        for pixel in stride(from: 0, to: pixels.count, by: 4) {
            let ink = (0..<4).map { Int(inverted ? pixels[pixel + $0] : 255 - pixels[pixel + $0]) }
            for channel in 0..<3 { pixels[pixel + channel] = UInt8((ink[channel] * ink[3] + 127) / 255) }
            pixels[pixel + 3] = 255
        }
    }

    /// Chromaticities (x, y) of red, green and blue, by H.273 primaries code.
    private static func primaries(_ code: Int) -> [(Double, Double)]? {
        switch code {
        case 1: [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)]
        case 9: [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]
        case 12: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
        default: nil
        }
    }

    /// The tone curve for an H.273 transfer code, as an ICC parametric curve of type 4:
    /// Y = (aX + b)^g for X ≥ d, cX below.
    private static func curve(_ code: Int) -> [Double]? {
        switch code {
        case 13, 2: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        case 1, 6, 14, 15: [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]
        case 8: [1, 1, 0, 1, 0]
        case 4: [2.2, 1, 0, 0, 0]
        case 5: [2.8, 1, 0, 0, 0]
        default: nil
        }
    }

    private static func makeProfile(_ codes: CodePoints) throws -> cmsHPROFILE {
        guard let chromaticities = primaries(codes.primaries) else {
            throw ImageFileError(description: "colour primaries \(codes.primaries) are not supported (1, 9 or 12 are)")
        }
        guard var parameters = curve(codes.transfer) else {
            throw ImageFileError(
                description:
                    "transfer function \(codes.transfer) is not supported (HDR and others; 1, 4-6, 8, 13-15 are)")
        }
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        let xyY = chromaticities.map { cmsCIExyY(x: $0.0, y: $0.1, Y: 1) }
        var triple = cmsCIExyYTRIPLE(Red: xyY[0], Green: xyY[1], Blue: xyY[2])
        guard let tone = cmsBuildParametricToneCurve(nil, 4, &parameters) else {
            throw ImageFileError(description: "Little CMS could not build the tone curve")
        }
        defer { cmsFreeToneCurve(tone) }
        var curves: [OpaquePointer?] = [tone, tone, tone]
        guard let profile = cmsCreateRGBProfile(&white, &triple, &curves) else {
            throw ImageFileError(description: "Little CMS could not build the profile")
        }
        return profile
    }

    private static func transform(
        _ pixels: inout [UInt8], from input: cmsHPROFILE, format: cmsUInt32Number, opaque: Bool = false
    ) throws {
        var output = [UInt8](repeating: 255, count: pixels.count)
        try transform(from: input, inputFormat: format, &pixels, to: &output, copyAlpha: !opaque)
        pixels = output
    }

    private static func transform(
        from input: cmsHPROFILE, inputFormat: cmsUInt32Number, _ source: inout [UInt8], to output: inout [UInt8],
        copyAlpha: Bool = false
    ) throws {
        let sRGB = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(sRGB) }
        let outputFormat = output.count == source.count ? liquidlens_lcms_rgba8() : liquidlens_lcms_rgb8()
        let flags = cmsUInt32Number(copyAlpha ? cmsFLAGS_COPY_ALPHA : 0)
        guard let transform = cmsCreateTransform(input, inputFormat, sRGB, outputFormat, 0, flags) else {
            throw ImageFileError(description: "Little CMS cannot convert its ICC profile to sRGB")
        }
        defer { cmsDeleteTransform(transform) }
        let count = output.count / (outputFormat == liquidlens_lcms_rgba8() ? 4 : 3)
        source.withUnsafeBytes { from in
            output.withUnsafeMutableBytes { to in
                cmsDoTransform(transform, from.baseAddress, to.baseAddress, cmsUInt32Number(count))
            }
        }
    }
}

// What `import LiquidLens` gives a user, by topic: each type named once, from the layer that
// declares it. The layers' other declarations are `package` (for the command line and the tests)
// or internal; nothing is re-exported wholesale. Grouped by topic, not sorted. Comparing images
// and reporting on them is a product of its own, LensCompare; the bench's GPU counters and the
// workloads' scene builders are the command line's (`package`).
// swift-format-ignore-file: OrderedImports

// Scenes: the document, its canvas, backdrop, label row and glass.
@_exported import struct LensModel.Scene
@_exported import struct LensModel.Canvas
@_exported import struct LensModel.RGBAColor
@_exported import struct LensModel.Point
@_exported import struct LensModel.Rect
@_exported import enum LensModel.Blending
@_exported import enum LensModel.Appearance
@_exported import struct LensModel.BackgroundLayer
@_exported import enum LensModel.ProbeBackground
@_exported import struct LensModel.LabelLayer
@_exported import enum LensModel.LabelMask
@_exported import struct LensModel.SceneError
@_exported import enum LensModel.Limits

// Glass: shapes, optics and Apple's lens model.
@_exported import struct LensModel.GlassElement
@_exported import enum LensModel.Shape
@_exported import struct LensModel.PlacedShape
@_exported import struct LensModel.Optics
@_exported import enum LensModel.OpticsPreset
@_exported import enum LensModel.RefractionModel
@_exported import enum LensModel.SurfaceProfile
@_exported import enum LensModel.DispersionMode
@_exported import struct LensModel.LensLift
@_exported import struct LensModel.RimLight
@_exported import struct LensModel.RimLobe
@_exported import struct LensModel.DropShadow
@_exported import struct LensModel.Contour
@_exported import struct LensModel.EdgeHighlight
@_exported import struct LensModel.TouchGlow
@_exported import enum LensModel.BlurEdge
@_exported import struct LensModel.ProgressiveBlur
@_exported import struct LensModel.ScrollEdgeEffect
@_exported import struct LensModel.AdaptiveAppearance
@_exported import enum LensModel.GlassGeneration
@_exported import struct LensModel.GradientTint
@_exported import enum LensModel.AppleGlass
@_exported import struct LensModel.ColorLevels
@_exported import struct LensModel.DisplacementStage
@_exported import enum LensModel.StageTarget
@_exported import struct LensModel.Aberration
@_exported import enum LensModel.GlassSizeLaw

// Materials, themes and accessibility.
@_exported import enum LensModel.Material
@_exported import enum LensModel.RenderingPath
@_exported import enum LensModel.HighlightAnimation
@_exported import struct LensModel.AnimatedHighlight
@_exported import struct LensModel.Accessibility
@_exported import struct LensModel.Theme
@_exported import enum LensModel.ThemeShape
@_exported import enum LensModel.ThemePreset
@_exported import enum LensIO.ThemeExport

// Controls and text.
@_exported import enum LensModel.Control
@_exported import enum LensModel.ControlAppearance
@_exported import struct LensModel.SegmentedControl
@_exported import struct LensModel.ControlItem
@_exported import struct LensModel.TabBar
@_exported import enum LensModel.TabBarStyle
@_exported import struct LensModel.TabBarAccessory
@_exported import struct LensModel.LensMenu
@_exported import struct LensModel.GlassControl
@_exported import struct LensControls.GlassControlsPanel
@_exported import struct LensModel.TextLine
@_exported import struct LensModel.FontSpec
@_exported import enum LensModel.FontWeight
@_exported import enum LensModel.SymbolGlyph
@_exported import enum LensModel.ContentSizeCategory
@_exported import protocol LensModel.TextRasterizer
@_exported import struct LensText.TextError

// Animation.
@_exported import struct LensModel.SceneAnimation
@_exported import struct LensModel.GestureTimeline
@_exported import struct LensModel.GesturePoint
@_exported import struct LensModel.ExternalSelection
@_exported import enum LensModel.Motion
@_exported import struct LensModel.Spring
@_exported import struct LensModel.Easing
@_exported import struct LensModel.TimingCurve
@_exported import struct LensModel.GlassTransition
@_exported import struct LensModel.ContentScroll

// The catalog: built-in scenes and animations, the feature gallery, batches and the workloads
// their manifests may name.
@_exported import enum LensCatalog.BuiltInScene
@_exported import enum LensCatalog.BuiltInAnimation
@_exported import enum LensCatalog.FeatureGallery
@_exported import enum LensCatalog.BenchmarkWorkload
@_exported import struct LensCatalog.BatchManifest

// Annotations: what a frame shows, for datasets.
@_exported import struct LensModel.FrameAnnotations
@_exported import struct LensModel.GlassAnnotation
@_exported import struct LensModel.ControlAnnotation
@_exported import struct LensModel.ControlPart
@_exported import struct LensModel.ControlState
@_exported import struct LensModel.PixelBox
@_exported import struct LensModel.COCODataset
@_exported import struct LensModel.FrameMasks

// Rendering: resolved frames for batches, and the Vulkan backend's options, devices and errors.
@_exported import struct LensResolve.FrameParameters
@_exported import class LensResolve.ResolveCache
@_exported import struct LensVulkan.VulkanOptions
@_exported import enum LensVulkan.MemoryPath
@_exported import struct LensVulkan.DeviceDescription
@_exported import enum LensVulkan.DeviceKind
@_exported import struct LensVulkan.DeviceMemoryLayout
@_exported import struct LensVulkan.VulkanError
@_exported import struct LensVulkan.VulkanResult

// Images and codecs.
@_exported import struct LensModel.RGBA8Image
@_exported import struct LensModel.AlphaImage
@_exported import enum LensIO.PNGCodec
@_exported import enum LensIO.ImageReader
@_exported import enum LensIO.ImageFileFormat
@_exported import class LensIO.ImageCache
@_exported import enum LensIO.PNGCompression
@_exported import enum LensIO.ImageFormat
@_exported import struct LensIO.ImageFileError
@_exported import class LensIO.AnimationWriter
@_exported import enum LensIO.AnimationFormat
@_exported import class LensIO.EncodingQueue

package migrate

import "github.com/gdvar/gdvar/variant"

// renamed3to4 lists engine classes that Godot 4 renamed, by their Godot 3
// name: mostly the 3D nodes that gained a "3D" suffix and the classes whose
// job moved to a differently named one. An empty new name means Godot 4
// has no such class any more.
var renamed3to4 = map[string]string{
	// Nodes.
	"Spatial":                   "Node3D",
	"KinematicBody":             "CharacterBody3D",
	"KinematicBody2D":           "CharacterBody2D",
	"RigidBody":                 "RigidBody3D",
	"StaticBody":                "StaticBody3D",
	"PhysicsBody":               "PhysicsBody3D",
	"CollisionObject":           "CollisionObject3D",
	"Area":                      "Area3D",
	"CollisionShape":            "CollisionShape3D",
	"CollisionPolygon":          "CollisionPolygon3D",
	"RayCast":                   "RayCast3D",
	"SpringArm":                 "SpringArm3D",
	"VehicleBody":               "VehicleBody3D",
	"VehicleWheel":              "VehicleWheel3D",
	"SoftBody":                  "SoftBody3D",
	"Joint":                     "Joint3D",
	"PinJoint":                  "PinJoint3D",
	"HingeJoint":                "HingeJoint3D",
	"SliderJoint":               "SliderJoint3D",
	"ConeTwistJoint":            "ConeTwistJoint3D",
	"Generic6DOFJoint":          "Generic6DOFJoint3D",
	"VisualInstance":            "VisualInstance3D",
	"GeometryInstance":          "GeometryInstance3D",
	"MeshInstance":              "MeshInstance3D",
	"MultiMeshInstance":         "MultiMeshInstance3D",
	"Camera":                    "Camera3D",
	"Listener":                  "AudioListener3D",
	"Listener2D":                "AudioListener2D",
	"Light":                     "Light3D",
	"DirectionalLight":          "DirectionalLight3D",
	"OmniLight":                 "OmniLight3D",
	"SpotLight":                 "SpotLight3D",
	"Light2D":                   "PointLight2D",
	"GIProbe":                   "VoxelGI",
	"BakedLightmap":             "LightmapGI",
	"Particles":                 "GPUParticles3D",
	"Particles2D":               "GPUParticles2D",
	"CPUParticles":              "CPUParticles3D",
	"Position2D":                "Marker2D",
	"Position3D":                "Marker3D",
	"Sprite":                    "Sprite2D",
	"AnimatedSprite":            "AnimatedSprite2D",
	"Path":                      "Path3D",
	"PathFollow":                "PathFollow3D",
	"Skeleton":                  "Skeleton3D",
	"BoneAttachment":            "BoneAttachment3D",
	"RemoteTransform":           "RemoteTransform3D",
	"NavigationMeshInstance":    "NavigationRegion3D",
	"NavigationPolygonInstance": "NavigationRegion2D",
	"VisibilityNotifier":        "VisibleOnScreenNotifier3D",
	"VisibilityNotifier2D":      "VisibleOnScreenNotifier2D",
	"VisibilityEnabler":         "VisibleOnScreenEnabler3D",
	"VisibilityEnabler2D":       "VisibleOnScreenEnabler2D",
	"ViewportContainer":         "SubViewportContainer",
	"ToolButton":                "Button",
	"Tabs":                      "TabBar",
	"TextureProgress":           "TextureProgressBar",
	"ARVROrigin":                "XROrigin3D",
	"ARVRCamera":                "XRCamera3D",
	"ARVRController":            "XRController3D",
	"ARVRAnchor":                "XRAnchor3D",
	"Occluder":                  "OccluderInstance3D",
	"YSort":                     "",
	"Navigation":                "",
	"Navigation2D":              "",
	"ClippedCamera":             "",
	"InterpolatedCamera":        "",
	"ImmediateGeometry":         "",
	"ProximityGroup":            "",
	"AnimationTreePlayer":       "",
	"KinematicCollision":        "KinematicCollision3D",
	"Reference":                 "RefCounted",
	"File":                      "FileAccess",
	"Directory":                 "DirAccess",
	"JSONParseResult":           "",
	// Resources.
	"SpatialMaterial":          "StandardMaterial3D",
	"CubeMesh":                 "BoxMesh",
	"Shape":                    "Shape3D",
	"SphereShape":              "SphereShape3D",
	"BoxShape":                 "BoxShape3D",
	"CapsuleShape":             "CapsuleShape3D",
	"CylinderShape":            "CylinderShape3D",
	"PlaneShape":               "WorldBoundaryShape3D",
	"RayShape":                 "SeparationRayShape3D",
	"RayShape2D":               "SeparationRayShape2D",
	"LineShape2D":              "WorldBoundaryShape2D",
	"ConvexPolygonShape":       "ConvexPolygonShape3D",
	"ConcavePolygonShape":      "ConcavePolygonShape3D",
	"HeightMapShape":           "HeightMapShape3D",
	"Texture":                  "Texture2D",
	"StreamTexture":            "CompressedTexture2D",
	"TextureArray":             "Texture2DArray",
	"ProxyTexture":             "",
	"LargeTexture":             "",
	"NoiseTexture":             "NoiseTexture2D",
	"GradientTexture":          "GradientTexture1D",
	"OpenSimplexNoise":         "FastNoiseLite",
	"ProceduralSky":            "ProceduralSkyMaterial",
	"PanoramaSky":              "PanoramaSkyMaterial",
	"DynamicFont":              "FontFile",
	"DynamicFontData":          "FontFile",
	"BitmapFont":               "FontFile",
	"AudioStreamSample":        "AudioStreamWAV",
	"AudioStreamOGGVorbis":     "AudioStreamOggVorbis",
	"VisualShaderNodeUniform":  "VisualShaderNodeParameter",
	"EditorSpatialGizmo":       "EditorNode3DGizmo",
	"EditorSpatialGizmoPlugin": "EditorNode3DGizmoPlugin",
	"GDScriptFunctionState":    "",
	"PackedDataContainerRef":   "",
}

// renamed4to3 is renamed3to4 the other way round.
var renamed4to3 = func() map[string]string {
	m := make(map[string]string, len(renamed3to4))
	for old, new := range renamed3to4 {
		if new != "" && new != old {
			if _, dup := m[new]; !dup || old < m[new] {
				m[new] = old // FontFile has three ancestors: keep one, by name
			}
		}
	}
	return m
}()

// RenamedClass returns what became of the engine class name (a Godot 3
// name when to is variant.Godot4, a Godot 4 name when to is variant.Godot3)
// in the other family: its new name and true when it was renamed, "" and
// true when it no longer exists, and false when it is unchanged or not in
// the table.
func RenamedClass(name string, to variant.Family) (string, bool) {
	m := renamed3to4
	if to == variant.Godot3 {
		m = renamed4to3
	}
	n, ok := m[name]
	if !ok || n == name {
		return "", false
	}
	return n, true
}

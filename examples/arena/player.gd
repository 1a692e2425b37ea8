extends Node2D

# A player of the arena: the server moves it by direction × 100 pixels per
# second and lowers hp by 1 each second. ServerSync (authority: the server)
# replicates position and hp; InputSync (authority: the player's peer)
# replicates direction, which the owner sets.

var direction := Vector2()
var hp := 100


func _enter_tree():
	# The player is named after its peer id; that peer owns its input.
	$InputSync.set_multiplayer_authority(str(name).to_int())


func _process(_delta):
	if $InputSync.is_multiplayer_authority() and not Engine.has_meta("arena_direction"):
		direction = Input.get_vector("ui_left", "ui_right", "ui_up", "ui_down")
	queue_redraw()


func _draw():
	var mine := $InputSync.is_multiplayer_authority()
	draw_circle(Vector2(), 16, Color.GOLD if mine else Color.STEEL_BLUE)
	draw_string(ThemeDB.fallback_font, Vector2(-16, -22), "%s  %d" % [name, hp])

extends Node2D
# The player scene's script for replication4.gd: the properties its
# synchronizers replicate.

var hp := 100
var direction := Vector2()
var label := "start"

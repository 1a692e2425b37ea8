extends Resource
@export var hp: int = 10
@export var speed: float = 1.5
@export var tags: Array[String] = []
@export var curve: Curve

extends Resource
export var hp = 10
export var speed = 1.5
export(Array, String) var tags = []
export(Resource) var curve

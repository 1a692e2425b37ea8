package variant

import "math"

// The engine's conversions between Basis and Quaternion, as typed
// containers apply them, computed like an official (single-precision)
// engine build: in float32, with every product and sum rounded on its own
// (the explicit conversions keep Go from fusing them).

// rows32 returns b's matrix row by row in float32, as the engine stores it.
func rows32(b Basis) (m [3][3]float32) {
	cols := [3]Vector3{b.X, b.Y, b.Z}
	for j, c := range cols {
		m[0][j], m[1][j], m[2][j] = float32(c.X), float32(c.Y), float32(c.Z)
	}
	return m
}

// basisFromRows32 builds a Basis from a float32 row-major matrix.
func basisFromRows32(m [3][3]float32) Basis {
	col := func(j int) Vector3 { return Vector3{float64(m[0][j]), float64(m[1][j]), float64(m[2][j])} }
	return Basis{col(0), col(1), col(2)}
}

// quaternionOf is Basis::get_quaternion, which takes any matrix (release
// builds do not check that it is a rotation).
func quaternionOf(b Basis) Quaternion {
	m := rows32(b)
	var q [4]float32
	if trace := float32(float32(m[0][0]+m[1][1]) + m[2][2]); trace > 0 {
		s := float32(math.Sqrt(float64(float32(trace + 1))))
		q[3] = float32(s * 0.5)
		s = float32(0.5 / s)
		q[0] = float32(float32(m[2][1]-m[1][2]) * s)
		q[1] = float32(float32(m[0][2]-m[2][0]) * s)
		q[2] = float32(float32(m[1][0]-m[0][1]) * s)
	} else {
		i := 0
		if m[0][0] < m[1][1] {
			i = 1
			if m[1][1] < m[2][2] {
				i = 2
			}
		} else if m[0][0] < m[2][2] {
			i = 2
		}
		j, k := (i+1)%3, (i+2)%3
		s := float32(math.Sqrt(float64(float32(float32(float32(m[i][i]-m[j][j])-m[k][k]) + 1))))
		q[i] = float32(s * 0.5)
		s = float32(0.5 / s)
		q[3] = float32(float32(m[k][j]-m[j][k]) * s)
		q[j] = float32(float32(m[j][i]+m[i][j]) * s)
		q[k] = float32(float32(m[k][i]+m[i][k]) * s)
	}
	return Quaternion{float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3])}
}

// basisOf is Basis(Quaternion), Basis::set_quaternion.
func basisOf(q Quaternion) Basis {
	x, y, z, w := float32(q.X), float32(q.Y), float32(q.Z), float32(q.W)
	d := float32(float32(float32(float32(x*x)+float32(y*y))+float32(z*z)) + float32(w*w))
	s := float32(2 / d)
	xs, ys, zs := float32(x*s), float32(y*s), float32(z*s)
	wx, wy, wz := float32(w*xs), float32(w*ys), float32(w*zs)
	xx, xy, xz := float32(x*xs), float32(x*ys), float32(x*zs)
	yy, yz, zz := float32(y*ys), float32(y*zs), float32(z*zs)
	return basisFromRows32([3][3]float32{
		{float32(1 - float32(yy+zz)), float32(xy - wz), float32(xz + wy)},
		{float32(xy + wz), float32(1 - float32(xx+zz)), float32(yz - wx)},
		{float32(xz - wy), float32(yz + wx), float32(1 - float32(xx+yy))},
	})
}

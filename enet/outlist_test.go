package enet

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOutList: an outList follows a slice through random pushes, pops,
// removals (anywhere, given the command before) and prepends.
func TestOutList(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var l outList
	var model []*outCmd
	seq := uint16(0)
	items := func(l *outList) []*outCmd {
		var s []*outCmd
		for o := l.head; o != nil; o = o.next {
			s = append(s, o)
		}
		return s
	}
	for step := range 5000 {
		switch r.IntN(4) {
		case 0:
			seq++
			oc := &outCmd{reliableSeq: seq}
			l.push(oc)
			model = append(model, oc)
		case 1:
			if len(model) == 0 {
				continue
			}
			i := r.IntN(len(model))
			var prev *outCmd
			if i > 0 {
				prev = model[i-1]
			}
			l.remove(prev, model[i])
			model = slices.Delete(model, i, i+1)
		case 2:
			var o outList
			var front []*outCmd
			for range r.IntN(3) {
				seq++
				oc := &outCmd{reliableSeq: seq}
				o.push(oc)
				front = append(front, oc)
			}
			l.prepend(&o)
			if o.len() != 0 || o.head != nil || o.tail != nil {
				t.Fatalf("step %d: prepend left %d commands in its source", step, o.len())
			}
			model = append(front, model...)
		case 3:
			oc := l.pop()
			switch {
			case len(model) == 0 && oc != nil:
				t.Fatalf("step %d: pop of an empty list gave a command", step)
			case len(model) > 0 && oc != model[0]:
				t.Fatalf("step %d: pop did not give the first command", step)
			case len(model) > 0:
				model = model[1:]
			}
		}
		got := items(&l)
		if !slices.Equal(got, model) || l.len() != len(model) {
			t.Fatalf("step %d: list of %d (len %d), model of %d", step, len(got), l.len(), len(model))
		}
		if len(model) > 0 && l.tail != model[len(model)-1] || len(model) == 0 && (l.head != nil || l.tail != nil) {
			t.Fatalf("step %d: tail wrong", step)
		}
	}
}

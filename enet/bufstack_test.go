package enet

import (
	"math/rand/v2"
	"testing"
)

// TestBufStack: a bufStack follows a slice through random pushes and
// pops across its chunks' edges, and allocates a chunk only to grow
// higher than it has been.
func TestBufStack(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var s bufStack
	var model [][]byte
	high := 0
	for step := range 20000 {
		if r.IntN(2) == 0 || len(model) > 200 && r.IntN(3) == 0 {
			if b := s.pop(); len(model) == 0 {
				if b != nil {
					t.Fatalf("step %d: pop of an empty stack gave a buffer", step)
				}
			} else if &b[:1][0] != &model[len(model)-1][:1][0] {
				t.Fatalf("step %d: pop gave another buffer than the last pushed", step)
			} else {
				model = model[:len(model)-1]
			}
		} else {
			b := make([]byte, 0, 8)
			s.push(b)
			model = append(model, b)
		}
		if s.len() != len(model) {
			t.Fatalf("step %d: len %d, model %d", step, s.len(), len(model))
		}
		chunks := 0
		for c := s.top; c != nil; c = c.next {
			chunks++
		}
		if want := (len(model) + bufChunkLen - 1) / bufChunkLen; chunks != want {
			t.Fatalf("step %d: %d chunks for %d buffers", step, chunks, len(model))
		}
		high = max(high, chunks)
		for c := s.spare; c != nil; c = c.next {
			chunks++
		}
		if chunks != high {
			t.Fatalf("step %d: %d chunks in use and spare, the stack has needed %d", step, chunks, high)
		}
	}
}

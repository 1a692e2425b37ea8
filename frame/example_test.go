package frame_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/gdvar/gdvar/frame"
)

// Two readers share a budget of 1 MiB: the first holds 600 KiB for its
// frame, so the second, which needs as much, fails with ErrBudget instead
// of allocating. Release gives the memory back.
func ExampleBudget() {
	budget := frame.NewBudget(1 << 20)
	opts := frame.Options{Kind: frame.Stream, Budget: budget}
	payload := make([]byte, 600<<10)
	stream, _ := frame.Append(nil, payload, opts)

	first := frame.NewReader(bytes.NewReader(stream), opts)
	second := frame.NewReader(bytes.NewReader(stream), opts)
	p, err := first.ReadFrame()
	fmt.Println(len(p), err, budget.Used())
	_, err = second.ReadFrame()
	fmt.Println(errors.Is(err, frame.ErrBudget), err)

	first.Release()
	second.Release()
	fmt.Println(budget.Used())
	// Output:
	// 614400 <nil> 614400
	// true frame at byte 0 (614400 bytes): frame memory budget exhausted
	// 0
}

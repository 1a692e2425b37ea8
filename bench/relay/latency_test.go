package main

import "testing"

func TestLatencyQuantiles(t *testing.T) {
	var l latencies
	if q := l.quantile(0.5); q != 0 {
		t.Errorf("no deliveries: median %v, want 0", q)
	}
	// 98 deliveries of 1.234 ms, one of 5 ms, one of 2 s.
	for range 98 {
		l.add(1234)
	}
	l.add(5000)
	l.add(2_000_000)
	l.add(-3) // a clock step: counted as 0
	for _, c := range []struct{ q, want float64 }{
		{0.01, 0.01}, // the negative one, in the first bucket
		{0.5, 1.24},  // the top of 1.234 ms's bucket
		{0.98, 1.24},
		{0.99, 5.01},
		{1, 1000},
	} {
		if got := l.quantile(c.q); got != c.want {
			t.Errorf("quantile(%v) = %v ms, want %v", c.q, got, c.want)
		}
	}
}

//go:build !linux

package peer

import "time"

const pollSupported = false

// pollLoop stands for a Poller's goroutine on systems without one.
type pollLoop struct{}

// pollRounds stands for what the loops of a Poller share.
type pollRounds struct{}

func newPollLoop(*pollRounds, time.Duration) (*pollLoop, error)       { return nil, ErrPollUnsupported }
func (lp *pollLoop) stop()                                            {}
func (lp *pollLoop) count() int                                       { return 0 }
func (lp *pollLoop) take(c *Conn, h PollHandler, o PollOptions) error { return ErrPollUnsupported }

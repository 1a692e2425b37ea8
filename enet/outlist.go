package enet

// outList is a queue of outgoing commands linked through outCmd.next:
// queueing a command allocates nothing, and an empty queue holds no
// memory, whatever it held before. A command is in at most one list.
type outList struct {
	head, tail *outCmd
	n          int
}

func (l *outList) len() int { return l.n }

// push appends oc.
func (l *outList) push(oc *outCmd) {
	oc.next = nil
	if l.tail == nil {
		l.head = oc
	} else {
		l.tail.next = oc
	}
	l.tail = oc
	l.n++
}

// pop unlinks and returns the first command, or nil.
func (l *outList) pop() *outCmd {
	oc := l.head
	if oc != nil {
		l.remove(nil, oc)
	}
	return oc
}

// remove unlinks oc, which follows prev in the list (prev nil: oc is the
// head).
func (l *outList) remove(prev, oc *outCmd) {
	if prev == nil {
		l.head = oc.next
	} else {
		prev.next = oc.next
	}
	if l.tail == oc {
		l.tail = prev
	}
	oc.next = nil
	l.n--
}

// prepend moves o's commands, in order, before l's.
func (l *outList) prepend(o *outList) {
	if o.n == 0 {
		return
	}
	o.tail.next = l.head
	if l.tail == nil {
		l.tail = o.tail
	}
	l.head = o.head
	l.n += o.n
	*o = outList{}
}

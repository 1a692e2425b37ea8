package enet

// ENet's built-in compressor (enet_host_compress_with_range_coder): an
// adaptive order-2 PPM model driving a range coder, restarted for every
// datagram. The coded form is the wire format, so the model below follows
// compress.c's arithmetic exactly, including its 8- and 16-bit wrap-around.

const (
	rcTop               = 1 << 24
	rcBottom            = 1 << 16
	ctxSymbolDelta      = 3
	ctxSymbolMinimum    = 1
	ctxEscapeMinimum    = 1
	subcontextOrder     = 2
	subcontextSymDelta  = 2
	subcontextEscDelta  = 5
	rangeCoderSymbolCap = 4096
)

type rcSymbol struct {
	value   uint8
	count   uint8
	under   uint16
	left    uint16 // offsets relative to this symbol
	right   uint16
	symbols uint16 // as a context: offset of its tree's root
	escapes uint16
	total   uint16
	parent  uint16 // absolute index
}

// RangeCoder is ENet's range coder compressor. The zero value is ready to
// use; one RangeCoder must not be used by two goroutines at once (a Host
// gives each of its hosts its own).
type RangeCoder struct {
	symbols    [rangeCoderSymbolCap]rcSymbol
	nextSymbol int
}

func (rc *RangeCoder) newSymbol(value uint8, count uint8) int {
	i := rc.nextSymbol
	rc.nextSymbol++
	rc.symbols[i] = rcSymbol{value: value, count: count, under: uint16(count)}
	return i
}

func (rc *RangeCoder) newContext(escapes uint16, minimum uint16) int {
	i := rc.newSymbol(0, 0)
	rc.symbols[i].escapes = escapes
	rc.symbols[i].total = escapes + 256*minimum
	return i
}

func (rc *RangeCoder) rescaleSymbol(i int) uint16 {
	var total uint16
	for {
		s := &rc.symbols[i]
		s.count -= s.count >> 1
		s.under = uint16(s.count)
		if s.left != 0 {
			s.under += rc.rescaleSymbol(i + int(s.left))
		}
		total += s.under
		if s.right == 0 {
			break
		}
		i += int(s.right)
	}
	return total
}

func (rc *RangeCoder) rescaleContext(ctx int, minimum uint16) {
	c := &rc.symbols[ctx]
	if c.symbols != 0 {
		c.total = rc.rescaleSymbol(ctx + int(c.symbols))
	} else {
		c.total = 0
	}
	c.escapes -= c.escapes >> 1
	c.total += c.escapes + 256*minimum
}

// contextEncode finds or adds value in the context's tree, updating the
// counts, and returns the symbol with its cumulative under and count.
func (rc *RangeCoder) contextEncode(ctx int, value uint8, update uint8, minimum uint16) (sym int, under, count uint16) {
	under = uint16(value) * minimum
	count = minimum
	c := &rc.symbols[ctx]
	if c.symbols == 0 {
		sym = rc.newSymbol(value, update)
		rc.symbols[ctx].symbols = uint16(sym - ctx)
		return
	}
	node := ctx + int(c.symbols)
	for {
		n := &rc.symbols[node]
		if value < n.value {
			n.under += uint16(update)
			if n.left != 0 {
				node += int(n.left)
				continue
			}
			sym = rc.newSymbol(value, update)
			rc.symbols[node].left = uint16(sym - node)
		} else if value > n.value {
			under += n.under
			if n.right != 0 {
				node += int(n.right)
				continue
			}
			sym = rc.newSymbol(value, update)
			rc.symbols[node].right = uint16(sym - node)
		} else {
			count += uint16(n.count)
			under += n.under - uint16(n.count)
			n.under += uint16(update)
			n.count += update
			sym = node
		}
		return
	}
}

// Compress codes src into dst (appending) and returns the result, or nil
// when the coded form would not be shorter than limit bytes.
func (rc *RangeCoder) Compress(dst []byte, src []byte, limit int) []byte {
	if len(src) == 0 || limit <= 0 {
		return nil
	}
	start := len(dst)
	var low uint32
	rng := ^uint32(0)
	rc.nextSymbol = 0
	root := rc.newContext(ctxEscapeMinimum, ctxSymbolMinimum)
	var predicted uint16
	order := 0
	full := false
	out := func(v byte) {
		if len(dst)-start >= limit {
			full = true
			return
		}
		dst = append(dst, v)
	}
	encode := func(under, count, total uint32) {
		rng /= total
		low += under * rng
		rng *= count
		for {
			if low^(low+rng) >= rcTop {
				if rng >= rcBottom {
					break
				}
				rng = -low & (rcBottom - 1)
			}
			out(byte(low >> 24))
			rng <<= 8
			low <<= 8
		}
	}
	for _, value := range src {
		parent := &predicted
		sub := int(predicted)
		encoded := false
		for sub != root {
			sym, under, count := rc.contextEncode(sub, value, subcontextSymDelta, 0)
			*parent = uint16(sym)
			parent = &rc.symbols[sym].parent
			s := &rc.symbols[sub]
			total := s.total
			if count > 0 {
				encode(uint32(s.escapes)+uint32(under), uint32(count), uint32(total))
			} else {
				if s.escapes > 0 && s.escapes < total {
					encode(0, uint32(s.escapes), uint32(total))
				}
				s.escapes += subcontextEscDelta
				s.total += subcontextEscDelta
			}
			s.total += subcontextSymDelta
			if count > 0xFF-2*subcontextSymDelta || s.total > rcBottom-0x100 {
				rc.rescaleContext(sub, 0)
			}
			if count > 0 {
				encoded = true
				break
			}
			sub = int(rc.symbols[sub].parent)
		}
		if !encoded {
			sym, under, count := rc.contextEncode(root, value, ctxSymbolDelta, ctxSymbolMinimum)
			*parent = uint16(sym)
			r := &rc.symbols[root]
			encode(uint32(r.escapes)+uint32(under), uint32(count), uint32(r.total))
			r.total += ctxSymbolDelta
			if count > 0xFF-2*ctxSymbolDelta+ctxSymbolMinimum || r.total > rcBottom-0x100 {
				rc.rescaleContext(root, ctxSymbolMinimum)
			}
		}
		if full {
			return nil
		}
		if order >= subcontextOrder {
			predicted = rc.symbols[predicted].parent
		} else {
			order++
		}
		if rc.nextSymbol >= rangeCoderSymbolCap-subcontextOrder {
			rc.nextSymbol = 0
			root = rc.newContext(ctxEscapeMinimum, ctxSymbolMinimum)
			predicted = 0
			order = 0
		}
	}
	for low != 0 {
		out(byte(low >> 24))
		low <<= 8
	}
	if full {
		return nil
	}
	return dst
}

// Decompress decodes src, appending at most limit bytes to dst. It reports
// false when the input is not a valid coding or decodes to more than limit.
func (rc *RangeCoder) Decompress(dst []byte, src []byte, limit int) ([]byte, bool) {
	if len(src) == 0 {
		return dst, false
	}
	start := len(dst)
	in := 0
	next := func() uint32 {
		if in < len(src) {
			in++
			return uint32(src[in-1])
		}
		return 0
	}
	var low, code uint32
	rng := ^uint32(0)
	rc.nextSymbol = 0
	root := rc.newContext(ctxEscapeMinimum, ctxSymbolMinimum)
	var predicted uint16
	order := 0
	code |= next() << 24
	code |= next() << 16
	code |= next() << 8
	code |= next()
	read := func(total uint16) (uint16, bool) {
		if total == 0 {
			return 0, false
		}
		rng /= uint32(total)
		if rng == 0 {
			return 0, false
		}
		return uint16((code - low) / rng), true
	}
	decode := func(under, count uint32) {
		low += under * rng
		rng *= count
		for {
			if low^(low+rng) >= rcTop {
				if rng >= rcBottom {
					break
				}
				rng = -low & (rcBottom - 1)
			}
			code = code<<8 | next()
			rng <<= 8
			low <<= 8
		}
	}
	for {
		var value uint8
		var bottom int
		parent := &predicted
		sub := int(predicted)
		found := false
		for ; sub != root; sub = int(rc.symbols[sub].parent) {
			s := &rc.symbols[sub]
			if s.escapes <= 0 {
				continue
			}
			total := s.total
			if s.escapes >= total {
				continue
			}
			c, ok := read(total)
			if !ok {
				return dst, false
			}
			if c < s.escapes {
				decode(0, uint32(s.escapes))
				continue
			}
			c -= s.escapes
			// Find the symbol: a subcontext never creates one while decoding.
			var under, count uint16
			sym := -1
			if s.symbols != 0 {
				node := sub + int(s.symbols)
				for {
					n := &rc.symbols[node]
					after := under + n.under
					before := uint16(n.count)
					if c >= after {
						under += n.under
						if n.right != 0 {
							node += int(n.right)
							continue
						}
					} else if int(c) < int(after)-int(before) {
						n.under += subcontextSymDelta
						if n.left != 0 {
							node += int(n.left)
							continue
						}
					} else {
						value = n.value
						count += uint16(n.count)
						under = after - before
						n.under += subcontextSymDelta
						n.count += subcontextSymDelta
						sym = node
					}
					break
				}
			}
			if sym < 0 {
				return dst, false
			}
			bottom = sym
			decode(uint32(s.escapes)+uint32(under), uint32(count))
			s.total += subcontextSymDelta
			if count > 0xFF-2*subcontextSymDelta || s.total > rcBottom-0x100 {
				rc.rescaleContext(sub, 0)
			}
			found = true
			break
		}
		if !found {
			r := &rc.symbols[root]
			total := r.total
			c, ok := read(total)
			if !ok {
				return dst, false
			}
			if c < r.escapes {
				decode(0, uint32(r.escapes))
				break
			}
			c -= r.escapes
			var under uint16
			count := uint16(ctxSymbolMinimum)
			sym := -1
			if r.symbols == 0 {
				value = uint8(c / ctxSymbolMinimum)
				under = c - c%ctxSymbolMinimum
				sym = rc.newSymbol(value, ctxSymbolDelta)
				rc.symbols[root].symbols = uint16(sym - root)
			} else {
				node := root + int(r.symbols)
				for {
					n := &rc.symbols[node]
					after := under + n.under + (uint16(n.value)+1)*ctxSymbolMinimum
					before := uint16(n.count) + ctxSymbolMinimum
					if c >= after {
						under += n.under
						if n.right != 0 {
							node += int(n.right)
							continue
						}
						value = n.value + 1 + uint8((c-after)/ctxSymbolMinimum)
						under = c - (c-after)%ctxSymbolMinimum
						sym = rc.newSymbol(value, ctxSymbolDelta)
						rc.symbols[node].right = uint16(sym - node)
					} else if int(c) < int(after)-int(before) {
						n.under += ctxSymbolDelta
						if n.left != 0 {
							node += int(n.left)
							continue
						}
						d := int(after) - int(before) - int(c) - 1
						value = uint8(int(n.value) - 1 - d/ctxSymbolMinimum)
						under = uint16(int(c) - d%ctxSymbolMinimum)
						sym = rc.newSymbol(value, ctxSymbolDelta)
						rc.symbols[node].left = uint16(sym - node)
					} else {
						value = n.value
						count += uint16(n.count)
						under = after - before
						n.under += ctxSymbolDelta
						n.count += ctxSymbolDelta
						sym = node
					}
					break
				}
			}
			bottom = sym
			r = &rc.symbols[root]
			decode(uint32(r.escapes)+uint32(under), uint32(count))
			r.total += ctxSymbolDelta
			if count > 0xFF-2*ctxSymbolDelta+ctxSymbolMinimum || r.total > rcBottom-0x100 {
				rc.rescaleContext(root, ctxSymbolMinimum)
			}
		}
		// Add the value to the subcontexts that escaped.
		for patch := int(predicted); patch != sub; patch = int(rc.symbols[patch].parent) {
			sym, _, count := rc.contextEncode(patch, value, subcontextSymDelta, 0)
			*parent = uint16(sym)
			parent = &rc.symbols[sym].parent
			p := &rc.symbols[patch]
			if count <= 0 {
				p.escapes += subcontextEscDelta
				p.total += subcontextEscDelta
			}
			p.total += subcontextSymDelta
			if count > 0xFF-2*subcontextSymDelta || p.total > rcBottom-0x100 {
				rc.rescaleContext(patch, 0)
			}
		}
		*parent = uint16(bottom)
		if len(dst)-start >= limit {
			return dst, false
		}
		dst = append(dst, value)
		if order >= subcontextOrder {
			predicted = rc.symbols[predicted].parent
		} else {
			order++
		}
		if rc.nextSymbol >= rangeCoderSymbolCap-subcontextOrder {
			rc.nextSymbol = 0
			root = rc.newContext(ctxEscapeMinimum, ctxSymbolMinimum)
			predicted = 0
			order = 0
		}
	}
	return dst, true
}

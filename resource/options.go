package resource

// DefaultMaxSize is the largest file (after decompression) the readers
// accept unless Options.MaxSize says otherwise: 256 MiB.
const DefaultMaxSize = 256 << 20

// Options configures the readers.
type Options struct {
	// MaxSize caps the size of a file, and of a compressed one's data
	// after decompression (checked from its header, before inflating);
	// 0 means DefaultMaxSize.
	MaxSize int64
}

func (o Options) maxSize() int64 {
	if o.MaxSize <= 0 {
		return DefaultMaxSize
	}
	return o.MaxSize
}

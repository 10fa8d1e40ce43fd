package nnue

// Portable row arithmetic: what rows_amd64.s computes, lane by lane. The
// other architectures use these directly (rows_generic.go); on amd64 they
// are the reference the assembly is tested against.

func addSubRowGo(dst, src, a, b *[Hidden]int16) {
	for i := range dst {
		dst[i] = src[i] + a[i] - b[i]
	}
}

func addRowGo(v, w *[Hidden]int16) {
	for i := range v {
		v[i] += w[i]
	}
}

func subRowGo(v, w *[Hidden]int16) {
	for i := range v {
		v[i] -= w[i]
	}
}

func outputSumGo(us, them *[Hidden]int16, w *[2 * Hidden]int16) int32 {
	var sum int32
	for i := range us {
		sum += int32(crelu(us[i])) * int32(w[i])
	}
	for i := range them {
		sum += int32(crelu(them[i])) * int32(w[Hidden+i])
	}
	return sum
}

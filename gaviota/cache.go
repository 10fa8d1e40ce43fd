package gaviota

import (
	"container/list"
	"sync"
)

// blockKey names one decoded block: the table, the side to move, the
// block's number within that side.
type blockKey struct {
	t     *table
	side  int
	block int
}

type cacheEntry struct {
	key  blockKey
	data []byte
}

// blockCache keeps the most recently used decoded blocks, at most max of
// them (at least one). It is safe for concurrent use; blocks are decoded
// outside its lock, so two goroutines may decode the same block at once
// and the second copy is dropped.
type blockCache struct {
	mu      sync.Mutex
	max     int
	order   *list.List // front: most recently used; values *cacheEntry
	entries map[blockKey]*list.Element
	hits    uint64
	misses  uint64
}

func newBlockCache(maxBlocks int) *blockCache {
	return &blockCache{max: max(maxBlocks, 1), order: list.New(), entries: map[blockKey]*list.Element{}}
}

// get returns the block k, nil when it is not cached.
func (c *blockCache) get(k blockKey) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok {
		c.misses++
		return nil
	}
	c.hits++
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).data
}

// put adds the block k, dropping the least recently used beyond max.
func (c *blockCache) put(k blockKey, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[k]; ok {
		return
	}
	c.entries[k] = c.order.PushFront(&cacheEntry{key: k, data: data})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.entries, last.Value.(*cacheEntry).key)
	}
}

// clear drops every block.
func (c *blockCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.order.Init()
	clear(c.entries)
}

// CacheStats says how many block lookups found their block decoded
// already (hits) and how many decoded it (misses), since Open.
func (tb *Tablebase) CacheStats() (hits, misses uint64) {
	tb.cache.mu.Lock()
	defer tb.cache.mu.Unlock()
	return tb.cache.hits, tb.cache.misses
}

namespace gq { void usagePlaceholder() {} }

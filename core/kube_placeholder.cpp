namespace gq { void kubePlaceholder() {} }

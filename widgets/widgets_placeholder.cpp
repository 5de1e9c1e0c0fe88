namespace gq { void widgetsPlaceholder() {} }

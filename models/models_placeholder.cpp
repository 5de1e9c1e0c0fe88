namespace gq { void modelsPlaceholder() {} }

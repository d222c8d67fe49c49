"""Configuration: the settings model, config.toml, file locations, profiles, the API key."""

def injection_reasons(text): return []
def is_suspicious_note(text): return False

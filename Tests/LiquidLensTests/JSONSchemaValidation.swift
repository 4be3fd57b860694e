import Foundation

/// Checks `value` against the JSON Schema subset the bench schema uses (type, const, enum,
/// required, properties, additionalProperties: false, items, minimum, maximum); returns the
/// problems, each with its JSON path.
func validate(_ value: Any, against schema: Any, path: String = "$") -> [String] {
    guard let schema = schema as? [String: Any] else { return ["\(path): schema is not an object"] }
    var problems: [String] = []
    if let expected = schema["const"], !jsonEqual(value, expected) {
        problems.append("\(path): expected \(expected)")
    }
    if let choices = schema["enum"] as? [Any], !choices.contains(where: { jsonEqual(value, $0) }) {
        problems.append("\(path): \(value) is not one of \(choices)")
    }
    if let type = schema["type"] as? String, !hasType(value, type) {
        return problems + ["\(path): expected \(type), found \(value)"]
    }
    if let number = value as? NSNumber, !isBool(value) {
        if let minimum = (schema["minimum"] as? NSNumber)?.doubleValue, number.doubleValue < minimum {
            problems.append("\(path): \(number) < \(minimum)")
        }
        if let maximum = (schema["maximum"] as? NSNumber)?.doubleValue, number.doubleValue > maximum {
            problems.append("\(path): \(number) > \(maximum)")
        }
    }
    if let object = value as? [String: Any] {
        for key in schema["required"] as? [String] ?? [] where object[key] == nil {
            problems.append("\(path): missing \"\(key)\"")
        }
        let properties = schema["properties"] as? [String: Any] ?? [:]
        for (key, child) in object {
            if let childSchema = properties[key] {
                problems += validate(child, against: childSchema, path: "\(path).\(key)")
            } else if schema["additionalProperties"] as? Bool == false {
                problems.append("\(path): unexpected \"\(key)\"")
            }
        }
    }
    if let array = value as? [Any], let items = schema["items"] {
        for (index, item) in array.enumerated() {
            problems += validate(item, against: items, path: "\(path)[\(index)]")
        }
    }
    return problems
}

private func isBool(_ value: Any) -> Bool {
    guard let number = value as? NSNumber else { return false }
    return String(cString: number.objCType) == "c"
}

private func hasType(_ value: Any, _ type: String) -> Bool {
    switch type {
    case "object": value is [String: Any]
    case "array": value is [Any]
    case "string": value is String
    case "boolean": isBool(value)
    case "integer": !isBool(value) && (value as? NSNumber).map { $0.doubleValue == $0.doubleValue.rounded() } == true
    case "number": !isBool(value) && value is NSNumber
    default: false
    }
}

private func jsonEqual(_ a: Any, _ b: Any) -> Bool {
    if let a = a as? String, let b = b as? String { return a == b }
    if let a = a as? NSNumber, let b = b as? NSNumber { return isBool(a) == isBool(b) && a == b }
    return false
}
